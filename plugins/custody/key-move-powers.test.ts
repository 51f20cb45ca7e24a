import { decodeFunctionData, encodeAbiParameters, keccak256, parseAbi } from "viem";
import { describe, expect, it } from "vitest";
import { addressKey } from "../../domain/evm/identity-key.ts";
import { acceptance, grantData, managementLast, powerName, revocationData } from "./key-move-powers.ts";

const OLD = "0x1111111111111111111111111111111111111111";
const NEW = "0x2222222222222222222222222222222222222222";
const IDENTITY = "0x3333333333333333333333333333333333333333";
const ABI = parseAbi([
  "function addKey(bytes32 key, uint256 purpose, uint256 keyType) returns (bool)",
  "function removeKey(bytes32 key, uint256 purpose) returns (bool)",
  "function setManager(address newManager)",
  "function transferOwnership(address newOwner)",
  "function acceptOwnership()",
]);
const decode = (data: `0x${string}` | undefined) => decodeFunctionData({ abi: ABI, data: data as `0x${string}` });

describe("the powers a key move hands over besides roles", () => {
  it("names an address's ERC-734 key as Identity.addressKey does (keccak256 of abi.encode(address))", () => {
    expect(addressKey(OLD)).toBe(keccak256(encodeAbiParameters([{ type: "address" }], [OLD])));
  });

  it("adds the successor's identity key with the old key's purpose, then removes the old key's", () => {
    const power = { kind: "identityKey", chainId: 1, contract: IDENTITY, purpose: 3 } as const;
    expect(decode(grantData(power, NEW))).toEqual({ functionName: "addKey", args: [addressKey(NEW), 3n, 1n] });
    expect(decode(revocationData(power, OLD, NEW))).toEqual({ functionName: "removeKey", args: [addressKey(OLD), 3n] });
  });

  it("hands a single holder's seat to the successor at the revocations step, granting nothing before", () => {
    const manager = { kind: "identityManager", chainId: 1, contract: IDENTITY } as const;
    const owner = { kind: "owner", chainId: 1, contract: IDENTITY } as const;
    expect(grantData(manager, NEW)).toBeUndefined();
    expect(grantData(owner, NEW)).toBeUndefined();
    expect(decode(revocationData(manager, OLD, NEW))).toEqual({ functionName: "setManager", args: [NEW] });
    expect(decode(revocationData(owner, OLD, NEW))).toEqual({ functionName: "transferOwnership", args: [NEW] });
    expect(powerName(owner)).not.toBe(powerName(manager));
    // The paymaster is Ownable2Step: its successor accepts; a manager seat moves in one write.
    expect(decode(acceptance(owner, OLD)?.data)).toEqual({ functionName: "acceptOwnership", args: undefined });
    expect(acceptance(owner, OLD)?.kind).toBe("custody.acceptOwnership");
    expect(acceptance(manager, OLD)).toBeUndefined();
  });

  it("removes a management purpose last, as it is what lets the key remove the others", () => {
    expect(managementLast([1, 3, 2])).toEqual([3, 2, 1]);
    expect(managementLast([2])).toEqual([2]);
  });
});
