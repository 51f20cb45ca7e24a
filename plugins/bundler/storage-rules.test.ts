import { encodeAbiParameters, type Hex, keccak256, toHex } from "viem";
import { describe, expect, it } from "vitest";
import {
  foreignStorage,
  isAssociated,
  keccakOwners,
  type StorageAccess,
  type StorageEntities,
  storageViolation,
} from "./storage-rules.ts";

const SENDER = "0x00000000000000000000000000000000000000aa";
const FACTORY = "0x00000000000000000000000000000000000000fa";
const PAYMASTER = "0x00000000000000000000000000000000000000ba";
const TOKEN = "0x00000000000000000000000000000000000000cc"; // a non-entity contract

/** The keccak input of `mapping(address => …)` at base slot `base`, keyed by `key`. */
const mappingInput = (key: string, base = 0n): Hex =>
  encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [key as Hex, base]);
const mappingSlot = (key: string, n = 0n): Hex => toHex(BigInt(keccak256(mappingInput(key))) + n, { size: 32 });

const ENTRY_POINT = "0x4337084d9e255ff0702461cf8895ce9e3b5ff108";
const existing: StorageEntities = {
  entryPoint: ENTRY_POINT,
  sender: SENDER,
  paymaster: PAYMASTER,
  senderExists: true,
  factoryStaked: false,
  paymasterStaked: false,
};
const deploying = (factoryStaked: boolean): StorageEntities => ({
  ...existing,
  factory: FACTORY,
  senderExists: false,
  factoryStaked,
});
const owners = keccakOwners([mappingInput(SENDER), mappingInput(PAYMASTER), mappingInput(FACTORY)]);
const access = (role: StorageAccess["role"], address: string, slot: Hex, write = false): StorageAccess => ({
  role,
  address,
  slot,
  write,
});
const ruleOf = (accesses: StorageAccess[], entities: StorageEntities) =>
  storageViolation(accesses, entities, owners)?.rule;

describe("ERC-7562 storage rules", () => {
  it("associates the address itself and keccak(address || x) + n up to 128 with the address", () => {
    expect(isAssociated(mappingSlot(SENDER), SENDER, owners)).toBe(true);
    expect(isAssociated(mappingSlot(SENDER, 128n), SENDER, owners)).toBe(true);
    expect(isAssociated(mappingSlot(SENDER, 129n), SENDER, owners)).toBe(false);
    expect(isAssociated(mappingSlot(SENDER), PAYMASTER, owners)).toBe(false);
    expect(isAssociated(SENDER, SENDER, owners)).toBe(true);
    expect(isAssociated("0x1", SENDER, owners)).toBe(false);
    // An input whose first word is not an address associates nothing.
    expect(keccakOwners([`0x${"ff".repeat(64)}`]).size).toBe(0);
  });

  it("STO-010: the account's own storage, any slot, read or written, by any entity", () => {
    const own = [access("account", SENDER, "0x5", true), access("paymaster", SENDER, "0x6")];
    expect(ruleOf(own, deploying(false))).toBeUndefined();
    // The EntryPoint's storage (the sender's deposit when it pays its prefund) is its own, also before deployment.
    expect(ruleOf([access("account", ENTRY_POINT, mappingSlot(SENDER), true)], deploying(false))).toBeUndefined();
  });

  it("STO-021: elsewhere the account reaches only storage associated with it", () => {
    expect(ruleOf([access("account", TOKEN, mappingSlot(SENDER, 1n), true)], existing)).toBeUndefined();
    expect(ruleOf([access("account", TOKEN, "0x0")], existing)).toBe("STO-021");
    expect(ruleOf([access("account", TOKEN, mappingSlot(PAYMASTER))], existing)).toBe("STO-021");
  });

  it("STO-022: the account's associated storage before it exists needs a staked factory", () => {
    const associated = [access("account", TOKEN, mappingSlot(SENDER))];
    expect(ruleOf(associated, deploying(false))).toBe("STO-022");
    expect(ruleOf(associated, deploying(true))).toBeUndefined();
    expect(ruleOf([access("factory", TOKEN, mappingSlot(SENDER), true)], deploying(true))).toBeUndefined();
  });

  it("STO-021/022: an entity's own storage associated with the account (a sponsorship mapping) like any other", () => {
    const sponsorship = [access("paymaster", PAYMASTER, mappingSlot(SENDER))];
    expect(ruleOf(sponsorship, existing)).toBeUndefined(); // unstaked, the account deployed
    expect(ruleOf(sponsorship, deploying(true))).toBe("STO-022"); // deploying: the paymaster's own stake decides
    expect(ruleOf(sponsorship, { ...deploying(false), paymasterStaked: true })).toBeUndefined();
    expect(ruleOf([access("factory", FACTORY, mappingSlot(SENDER), true)], deploying(false))).toBe("STO-022");
    expect(ruleOf([access("paymaster", PAYMASTER, mappingSlot(PAYMASTER))], existing)).toBe("STO-031");
  });

  it("STO-031: an entity's own storage only staked, and never another entity's", () => {
    const own = [access("paymaster", PAYMASTER, "0x0", true)];
    expect(ruleOf(own, existing)).toBe("STO-031");
    expect(ruleOf(own, { ...existing, paymasterStaked: true })).toBeUndefined();
    expect(ruleOf([access("account", PAYMASTER, "0x0")], { ...existing, paymasterStaked: true })).toBe("STO-031");
    expect(ruleOf([access("factory", FACTORY, "0x0")], deploying(true))).toBeUndefined();
  });

  it("STO-032: storage associated with a factory or paymaster, in another contract, only staked", () => {
    const associated = [access("paymaster", TOKEN, mappingSlot(PAYMASTER), true)];
    expect(ruleOf(associated, existing)).toBe("STO-032");
    expect(ruleOf(associated, { ...existing, paymasterStaked: true })).toBeUndefined();
    expect(ruleOf([access("factory", TOKEN, mappingSlot(FACTORY))], deploying(false))).toBe("STO-032");
  });

  it("STO-033: a staked entity reads any other non-entity storage but writes none; unstaked, neither", () => {
    const read = [access("paymaster", TOKEN, "0x3")];
    const write = [access("paymaster", TOKEN, "0x3", true)];
    const staked = { ...existing, paymasterStaked: true };
    expect(ruleOf(read, staked)).toBeUndefined();
    expect(ruleOf(write, staked)).toBe("STO-033");
    expect(ruleOf(read, existing)).toBe("STO-033");
    // The account's own phase gets no exception from a staked paymaster.
    expect(ruleOf([access("account", TOKEN, "0x3")], staked)).toBe("STO-021");
  });

  it("names the first breaking access with its entity, contract, slot and kind", () => {
    const violation = storageViolation(
      [access("account", SENDER, "0x1"), access("paymaster", TOKEN, "0x9", true)],
      existing,
      owners,
    );
    expect(violation).toMatchObject({ rule: "STO-033", role: "paymaster", address: TOKEN, slot: "0x9", write: true });
  });

  it("lists the contracts whose storage was accessed, once each, without the sender's and the EntryPoint's", () => {
    const accesses = [
      access("account", SENDER, "0x0"),
      access("paymaster", TOKEN, mappingSlot(SENDER)),
      access("paymaster", ENTRY_POINT, "0x1", true),
      access("factory", PAYMASTER, "0x2"),
      access("account", TOKEN, "0x3"),
    ];
    expect(foreignStorage(accesses, existing)).toEqual([PAYMASTER, TOKEN]);
    expect(foreignStorage([access("account", SENDER, "0x0")], existing)).toEqual([]);
  });
});
