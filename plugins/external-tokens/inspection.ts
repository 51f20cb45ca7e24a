// The live contract inspection (the spec's GET /api/v2/contracts/{address}): the chain answers (code, ERC-20
// metadata, and the system's registry for eligibility and detected interfaces), the index says whether a token
// factory made it.
import { type Address, erc20Abi, formatUnits, getAddress } from "viem";
import { ExternalTokenRegistryAbi } from "../../abis/ExternalTokenRegistry.ts";
import { unlessChainUnavailable } from "../../host/chain/chain-unavailable.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";

/** The registry's BlockingReason enum, in its order (0 is eligible). */
const BLOCKING_REASONS = [null, "no-code", "already-registered", "system-managed"] as const;
export type BlockingReason = Exclude<(typeof BLOCKING_REASONS)[number], null>;
export const KNOWN_TO = ["factory-token", "external-token", "system"] as const;

/** The registry's INTERFACE_SMART bit of detectInterfaces. */
const INTERFACE_SMART = 4;

const registryOf = (chain: RequestChain) => getAddress(chain.contracts.externalTokenRegistry);

/** Why the system's registry would refuse `address` now (null: eligible), as the contract itself decides it. */
export async function blockingReason(chain: RequestChain, address: Address): Promise<BlockingReason | null> {
  const reason = await chain.client.readContract({
    abi: ExternalTokenRegistryAbi,
    address: registryOf(chain),
    functionName: "blockingReason",
    args: [address],
  });
  return BLOCKING_REASONS[reason] ?? null;
}

/** Refuses an ineligible address before anything is queued, with the code the registry's revert would map to. */
export async function assertEligible(chain: RequestChain, address: Address) {
  const reason = await blockingReason(chain, address);
  if (reason === null) return;
  const details = { tokenAddress: address, blockingReason: reason };
  if (reason === "already-registered") {
    throw new ApiError("RESOURCE_ALREADY_EXISTS", {
      message: `The token ${address} is already registered in the system`,
      details,
    });
  }
  throw new ApiError("EXTERNAL_TOKEN_NOT_ELIGIBLE", {
    message: `The address ${address} cannot be registered: ${reason}`,
    details,
  });
}

/** Refuses a token the system's external token registry has not registered (as the index knows it). */
export async function assertRegistered(chain: RequestChain, address: Address) {
  const found = await chain.ledger
    .selectFrom("externalToken")
    .select("token")
    .where("system", "=", indexedHex(chain.systemAddress))
    .where("token", "=", indexedHex(address))
    .executeTakeFirst();
  if (!found) {
    throw new ApiError("EXTERNAL_TOKEN_NOT_FOUND", {
      message: `The token ${address} is not registered as an external token of the system`,
      details: { tokenAddress: address },
    });
  }
}

/** A read that answers undefined when the contract does not answer (no such function, a revert); the node must. */
const attempt = <T>(read: Promise<T>): Promise<T | undefined> => read.catch(unlessChainUnavailable(undefined));

/** The ERC-20 metadata, or null when the contract does not answer totalSupply(). */
async function tokenMetadata(chain: RequestChain, address: Address) {
  const read = <F extends "name" | "symbol" | "decimals" | "totalSupply">(functionName: F) =>
    attempt(chain.client.readContract({ abi: erc20Abi, address, functionName }));
  const [name, symbol, decimals, totalSupply] = await Promise.all([
    read("name"),
    read("symbol"),
    read("decimals"),
    read("totalSupply"),
  ]);
  if (totalSupply === undefined) return null;
  const places = decimals ?? 18;
  return { name: name ?? "", symbol: symbol ?? "", decimals: places, totalSupply: formatUnits(totalSupply, places) };
}

async function isFactoryToken(chain: RequestChain, address: Address) {
  const row = await chain.ledger
    .selectFrom("token")
    .select("id")
    .where("id", "=", indexedHex(address))
    .executeTakeFirst();
  return row !== undefined;
}

export async function inspectContract(chain: RequestChain, address: Address) {
  const code = await chain.client.getCode({ address });
  const hasCode = code !== undefined && code !== "0x";
  const [token, reason, detected, factoryToken] = await Promise.all([
    hasCode ? tokenMetadata(chain, address) : null,
    blockingReason(chain, address),
    hasCode
      ? chain.client.readContract({
          abi: ExternalTokenRegistryAbi,
          address: registryOf(chain),
          functionName: "detectInterfaces",
          args: [address],
        })
      : 0,
    isFactoryToken(chain, address),
  ]);
  const knownTo: (typeof KNOWN_TO)[number] | null = factoryToken
    ? "factory-token"
    : reason === "already-registered"
      ? "external-token"
      : reason === "system-managed"
        ? "system"
        : null;
  return {
    address: getAddress(address),
    hasCode,
    token,
    isSmart: (Number(detected) & INTERFACE_SMART) !== 0,
    knownTo,
    registration: { eligible: reason === null, blockingReason: reason },
  };
}
