import { encodeAbiParameters, keccak256 } from "viem";
import { toPackedUserOperation } from "viem/account-abstraction";
import { describe, expect, it } from "vitest";
import { packed, type RpcUserOperation, toUserOperation, unpacked, userOpHash } from "./user-operation.ts";

const V07 = "0x0000000071727De22E5E9d8BAf0edAc6f37da032";
const V08 = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";
const op: RpcUserOperation = {
  sender: "0x00000000000000000000000000000000000000aa",
  nonce: "0x1000000000000000002",
  factory: "0x00000000000000000000000000000000000000fa",
  factoryData: "0xabcd",
  callData: "0x1234",
  callGasLimit: "0x5208",
  verificationGasLimit: "0x186a0",
  preVerificationGas: "0xc350",
  maxFeePerGas: "0x3b9aca00",
  maxPriorityFeePerGas: "0x5f5e100",
  paymaster: "0x00000000000000000000000000000000000000bb",
  paymasterVerificationGasLimit: "0x7530",
  paymasterPostOpGasLimit: "0x2710",
  paymasterData: "0xee",
  signature: "0x99",
};

describe("UserOperation hashes per EntryPoint", () => {
  it("v0.7: keccak(abi.encode(keccak(packed fields), entryPoint, chainId))", () => {
    const p = toPackedUserOperation(toUserOperation(op));
    const fields = encodeAbiParameters(
      [
        { type: "address" },
        { type: "uint256" },
        { type: "bytes32" },
        { type: "bytes32" },
        { type: "bytes32" },
        { type: "uint256" },
        { type: "bytes32" },
        { type: "bytes32" },
      ],
      [
        p.sender,
        p.nonce,
        keccak256(p.initCode),
        keccak256(p.callData),
        p.accountGasLimits,
        p.preVerificationGas,
        p.gasFees,
        keccak256(p.paymasterAndData),
      ],
    );
    const expected = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "address" }, { type: "uint256" }],
        [keccak256(fields), V07, 31337n],
      ),
    );
    expect(userOpHash(toUserOperation(op), 31337, { address: V07, version: "0.7" })).toBe(expected);
  });

  it("v0.8's typed hash differs from v0.7's rule for the same operation and address", () => {
    const operation = toUserOperation(op);
    expect(userOpHash(operation, 31337, { address: V08, version: "0.8" })).not.toBe(
      userOpHash(operation, 31337, { address: V08, version: "0.7" }),
    );
  });
});

describe("unpacked (a PackedUserOperation from handleOps' calldata back in ERC-7769 JSON)", () => {
  it("gives back the operation it was packed from, with and without factory and paymaster", () => {
    expect(unpacked(packed(toUserOperation(op)))).toEqual(op);
    const plain: RpcUserOperation = {
      ...op,
      factory: undefined,
      factoryData: undefined,
      paymaster: undefined,
      paymasterVerificationGasLimit: undefined,
      paymasterPostOpGasLimit: undefined,
      paymasterData: undefined,
    };
    const back = unpacked(packed(toUserOperation(plain)));
    expect(back).toEqual(JSON.parse(JSON.stringify(plain)));
  });
});
