// EIP-7702 senders (EntryPoint v0.8 only): an EOA whose code is a delegation designator (0xef0100 || implementation)
// is an account running its implementation's code. An operation may carry the EOA's signed authorisation
// (`eip7702Auth`, ERC-7769), which its bundle's type-4 transaction applies; until it is on chain, simulation puts the
// designator at the sender by state override. `factory` 0x7702 (the initCode marker) makes the EntryPoint hash the
// delegate (and factoryData) in place of the initCode (Eip7702Support.sol).
import { z } from "@hono/zod-openapi";
import { type Address, concat, getAddress, type Hex, isAddressEqual, pad, type StateOverride } from "viem";
import { recoverAuthorizationAddress } from "viem/utils";
import type { StoredAuthorization } from "../../host/chain/authorizations.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { ServedEntryPoint } from "./entry-points.ts";
import { rpcError } from "./rpc-error.ts";

/** The initCode marker of an EIP-7702 sender, as the EntryPoint reads it: 0x7702 padded to 20 bytes. */
export const EIP7702_FACTORY: Address = "0x7702000000000000000000000000000000000000";
const DELEGATION_PREFIX = "0xef0100";

const number = z.string().regex(/^0x[0-9a-fA-F]{1,64}$/, "a hex number");
/** ERC-7769's `eip7702Auth`: one signed authorisation tuple (hex numbers; viem pads r, s and yParity). */
export const Eip7702AuthSchema = z
  .object({
    chainId: number,
    address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "an address"),
    nonce: z.string().regex(/^0x[0-9a-fA-F]{1,16}$/, "a 64-bit hex number"),
    yParity: z.string().regex(/^0x0?[01]$/, "0x0 or 0x1"),
    r: number,
    s: number,
  })
  .openapi("Eip7702Auth");
export type Eip7702Auth = z.infer<typeof Eip7702AuthSchema>;

/** Whether `factory` is the 7702 marker: as viem sends it (0x7702) or padded. */
export const isEip7702Factory = (factory: string | null | undefined): boolean =>
  factory?.toLowerCase() === "0x7702" || factory?.toLowerCase() === EIP7702_FACTORY;

/** The code EIP-7702 gives an EOA delegated to `implementation`. */
export const delegationDesignator = (implementation: Address): Hex => concat([DELEGATION_PREFIX, implementation]);

/** The implementation a delegated EOA's code names; undefined for other code. */
export function delegateOf(code: Hex | undefined): Address | undefined {
  if (code?.length !== 48 || !code.toLowerCase().startsWith(DELEGATION_PREFIX)) return undefined;
  return getAddress(`0x${code.slice(8)}`);
}

/** The authorisation as the transaction pipeline stores and signs it. */
export function toAuthorization(auth: Eip7702Auth): StoredAuthorization {
  return {
    address: getAddress(auth.address),
    chainId: Number(BigInt(auth.chainId)),
    nonce: Number(BigInt(auth.nonce)),
    r: pad(auth.r as Hex, { size: 32 }),
    s: pad(auth.s as Hex, { size: 32 }),
    yParity: Number(BigInt(auth.yParity)),
  };
}

/** An operation of a 7702 sender (an authorisation or the initCode marker) is one for EntryPoint v0.8 only: -32602. */
export function assertEip7702Supported(
  op: { eip7702Auth?: Eip7702Auth | null; factory?: string | null },
  entryPoint: ServedEntryPoint,
): void {
  if (!op.eip7702Auth && !isEip7702Factory(op.factory)) return;
  if (entryPoint.version !== "0.8")
    throw rpcError("BUNDLER_INVALID_PARAMS", `EIP-7702 operations need EntryPoint v0.8, not v${entryPoint.version}`, {
      field: "eip7702Auth",
    });
}

/**
 * An authorisation the bundle can apply: for this chain (or any, chain id 0), signed by the sender itself, at the
 * sender's current nonce (otherwise the transaction would skip it). -32602 names what is wrong.
 */
export async function assertAuthorizationApplies(on: ServedChain, sender: Address, auth: StoredAuthorization) {
  const refuse = (message: string) => rpcError("BUNDLER_INVALID_PARAMS", message, { field: "eip7702Auth" });
  if (auth.chainId !== 0 && auth.chainId !== on.chainId)
    throw refuse(`The authorisation is for chain ${auth.chainId}, not ${on.chainId}`);
  const authority = await recoverAuthorizationAddress({ authorization: auth }).catch(() => undefined);
  if (!authority || !isAddressEqual(authority, sender))
    throw refuse("The authorisation is not signed by the operation's sender");
  const nonce = await on.client.getTransactionCount({ address: sender });
  if (auth.nonce !== nonce) throw refuse(`The authorisation's nonce is ${auth.nonce}, the sender's is ${nonce}`);
}

/** A sender's delegation as the operation's simulation and hash see it. */
export interface SenderDelegation {
  /** The implementation the EntryPoint reads at the sender (the authorisation's, else the chain's); undefined for a
   * sender that is no 7702 one. */
  delegate?: Address;
  /** The designator at the sender while the authorisation is not on chain (empty otherwise). */
  override: StateOverride;
}

/**
 * The delegation of `sender` for an operation: its authorisation's (applied by state override), else, for an
 * operation with the 7702 marker, the one on chain (-32602 when the sender has none: the EntryPoint would refuse).
 */
export async function senderDelegation(
  on: ServedChain,
  sender: Address,
  authorization: StoredAuthorization | undefined,
  marked: boolean,
): Promise<SenderDelegation> {
  if (authorization)
    return {
      delegate: authorization.address,
      override: [{ address: sender, code: delegationDesignator(authorization.address) }],
    };
  if (!marked) return { override: [] };
  const delegate = delegateOf(await on.client.getCode({ address: sender }));
  if (!delegate)
    throw rpcError(
      "BUNDLER_INVALID_PARAMS",
      "The sender is not delegated (EIP-7702) and the operation carries no eip7702Auth",
      {
        field: "eip7702Auth",
      },
    );
  return { delegate, override: [] };
}
