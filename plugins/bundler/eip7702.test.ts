import { concat, getAddress } from "viem";
import { formatUserOperationRequest, getUserOperationHash, toPackedUserOperation } from "viem/account-abstraction";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { ApiError } from "../../host/errors/api-error.ts";
import {
  assertAuthorizationApplies,
  assertEip7702Supported,
  delegateOf,
  delegationDesignator,
  EIP7702_FACTORY,
  Eip7702AuthSchema,
  senderDelegation,
} from "./eip7702.ts";
import { authorizationOf, packed, RpcUserOperationSchema, toUserOperation, userOpHash } from "./user-operation.ts";

const V08 = { address: "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108", version: "0.8" } as const;
const V07 = { address: "0x0000000071727De22E5E9d8BAf0edAc6f37da032", version: "0.7" } as const;
const IMPLEMENTATION = getAddress("0x00000000000000000000000000000000000007a1");
const owner = privateKeyToAccount(generatePrivateKey());

/** An operation of a fresh EOA as viem's bundler client sends it, with its signed authorisation. */
async function viemOperation(factoryData: `0x${string}` = "0x") {
  const authorization = await owner.signAuthorization({ address: IMPLEMENTATION, chainId: 31337, nonce: 0 });
  const op = {
    sender: owner.address,
    nonce: 0n,
    factory: "0x7702" as const,
    factoryData,
    callData: "0x1234" as const,
    callGasLimit: 50_000n,
    verificationGasLimit: 100_000n,
    preVerificationGas: 70_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    signature: "0x99" as const,
    authorization,
  };
  return { op, authorization, rpc: formatUserOperationRequest(op) };
}

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error as ApiError;
  }
  return undefined;
};

describe("eip7702Auth in the operation schema (ERC-7769)", () => {
  it("keeps the authorisation and the 0x7702 factory marker viem sends", async () => {
    const { rpc, authorization } = await viemOperation();
    const parsed = RpcUserOperationSchema.parse(rpc);
    expect(parsed.eip7702Auth).toEqual(rpc.eip7702Auth);
    expect(parsed.factory).toBe("0x7702");
    const op = toUserOperation(parsed);
    expect(op.factory).toBe(EIP7702_FACTORY);
    expect(authorizationOf(op)).toEqual({
      address: IMPLEMENTATION,
      chainId: 31337,
      nonce: 0,
      r: authorization.r,
      s: authorization.s,
      yParity: authorization.yParity,
    });
    expect("eip7702Auth" in op).toBe(false);
  });

  it("refuses a malformed authorisation and a short factory other than the marker", async () => {
    const { rpc } = await viemOperation();
    expect(Eip7702AuthSchema.safeParse({ ...rpc.eip7702Auth, yParity: "0x1b" }).success).toBe(false);
    expect(Eip7702AuthSchema.safeParse({ ...rpc.eip7702Auth, address: "0x12" }).success).toBe(false);
    expect(RpcUserOperationSchema.safeParse({ ...rpc, factory: "0x7703" }).success).toBe(false);
  });

  it("packs the marker padded to 20 bytes, followed by factoryData, as the EntryPoint reads it", async () => {
    const { rpc } = await viemOperation("0xabcd");
    expect(packed(toUserOperation(RpcUserOperationSchema.parse(rpc))).initCode).toBe(
      concat([EIP7702_FACTORY, "0xabcd"]),
    );
  });
});

describe("the v0.8 userOpHash of a 7702 sender (Eip7702Support: the delegate hashed in place of the initCode)", () => {
  it("hashes keccak(delegate || factoryData) for the initCode: the authorisation's delegate, else the chain's", async () => {
    const { rpc, op: viemOp } = await viemOperation("0xabcd");
    const op = toUserOperation(RpcUserOperationSchema.parse(rpc));
    // The EntryPoint's rule, independently: an operation whose initCode is delegate || factoryData.
    const { authorization: _, ...withoutAuth } = viemOp;
    const expected = getUserOperationHash({
      chainId: 31337,
      entryPointAddress: V08.address,
      entryPointVersion: "0.8",
      userOperation: { ...withoutAuth, factory: IMPLEMENTATION, factoryData: "0xabcd" },
    });
    expect(userOpHash(op, 31337, V08)).toBe(expected);
    expect(userOpHash(op, 31337, V08)).toBe(
      getUserOperationHash({
        chainId: 31337,
        entryPointAddress: V08.address,
        entryPointVersion: "0.8",
        userOperation: viemOp,
      }),
    );
    // Without the authorisation (the EOA delegated already), the delegate read from the chain is hashed.
    const { eip7702Auth: __, ...onChain } = RpcUserOperationSchema.parse(rpc);
    expect(userOpHash(toUserOperation(onChain), 31337, V08, IMPLEMENTATION)).toBe(expected);
    expect(userOpHash(toUserOperation(onChain), 31337, V08)).not.toBe(expected);
    expect(toPackedUserOperation(op).initCode).toBe(concat([EIP7702_FACTORY, "0xabcd"]));
  });
});

describe("delegation and what simulation overrides", () => {
  it("reads an EOA's designator back, and nothing from other code", () => {
    const designator = delegationDesignator(IMPLEMENTATION);
    expect(designator).toBe(`0xef0100${IMPLEMENTATION.slice(2)}`);
    expect(delegateOf(designator)).toBe(IMPLEMENTATION);
    expect(delegateOf("0x6000")).toBeUndefined();
    expect(delegateOf(undefined)).toBeUndefined();
  });

  it("puts the authorisation's designator at the sender for simulation; a plain sender gets nothing", async () => {
    const { op } = await viemOperation();
    const chain = { chainId: 31337 } as ServedChain; // neither needs the chain
    const stored = authorizationOf(toUserOperation(RpcUserOperationSchema.parse(formatUserOperationRequest(op))));
    expect(await senderDelegation(chain, owner.address, stored, true)).toEqual({
      delegate: IMPLEMENTATION,
      override: [{ address: owner.address, code: delegationDesignator(IMPLEMENTATION) }],
    });
    expect(await senderDelegation(chain, owner.address, undefined, false)).toEqual({ override: [] });
  });

  it("refuses an operation of a 7702 sender for EntryPoint v0.7 (-32602)", async () => {
    const { rpc } = await viemOperation();
    const parsed = RpcUserOperationSchema.parse(rpc);
    expect(refusal(() => assertEip7702Supported(parsed, V07))?.code).toBe("BUNDLER_INVALID_PARAMS");
    expect(refusal(() => assertEip7702Supported({ factory: "0x7702" }, V07))?.code).toBe("BUNDLER_INVALID_PARAMS");
    expect(refusal(() => assertEip7702Supported(parsed, V08))).toBeUndefined();
    expect(refusal(() => assertEip7702Supported({ factory: IMPLEMENTATION }, V07))).toBeUndefined();
  });

  it("refuses an authorisation for another chain or signed by another key (before asking the chain)", async () => {
    const chain = { chainId: 31337 } as ServedChain;
    const { op } = await viemOperation();
    const stored = authorizationOf(toUserOperation(RpcUserOperationSchema.parse(formatUserOperationRequest(op))))!;
    const other = privateKeyToAccount(generatePrivateKey()).address;
    await expect(assertAuthorizationApplies(chain, other, stored)).rejects.toMatchObject({
      code: "BUNDLER_INVALID_PARAMS",
      message: expect.stringContaining("not signed by the operation's sender"),
    });
    await expect(assertAuthorizationApplies(chain, owner.address, { ...stored, chainId: 1 })).rejects.toMatchObject({
      code: "BUNDLER_INVALID_PARAMS",
      message: expect.stringContaining("for chain 1"),
    });
  });
});
