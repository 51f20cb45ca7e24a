// The powers an organisation's key holds on chain besides the indexed roles, for the move to the HSM
// (key-move-task.ts): ERC-734 keys on the system's identities, the manager of its contract identities, and the
// ownership of the organisation's paymaster. Each is read live from the chain, so a resumed move sees what is left.
import { type Address, encodeFunctionData, getAddress, type Hex, parseAbi, parseAbiItem } from "viem";
import { SponsoringPaymasterFactoryAbi } from "../../abis/SponsoringPaymasterFactory.ts";
import { addressKey } from "../../domain/evm/identity-key.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import { type HeldSeat, SEAT_KINDS, seatAcceptanceData, seatProposalData } from "./key-move-seats.ts";

export const MANAGEMENT = 1;
/** Kept by the old key: Identity.isClaimValid accepts a claim only while its signer holds this purpose. */
export const CLAIM = 3;
const ECDSA_KEY = 1n;

/** One power of a key: an ERC-734 purpose on an identity, or the single holder's seat of a contract. */
export type HeldPower =
  | { kind: "identityKey"; chainId: number; contract: string; purpose: number }
  | { kind: "identityManager"; chainId: number; contract: string }
  | HeldSeat; // the paymaster's owner here, the add-ons' and modules' seats in key-move-seats.ts

const IDENTITY = parseAbi([
  "function addKey(bytes32 key, uint256 purpose, uint256 keyType) returns (bool)",
  "function removeKey(bytes32 key, uint256 purpose) returns (bool)",
  "function keyHasPurpose(bytes32 key, uint256 purpose) view returns (bool)",
  "function getKeyPurposes(bytes32 key) view returns (uint256[])",
]);
const CONTRACT_IDENTITY = parseAbi([
  "function manager() view returns (address)",
  "function setManager(address newManager)",
]);
const OWNABLE = parseAbi(["function owner() view returns (address)"]);
const KEY_ADDED = parseAbiItem("event KeyAdded(bytes32 indexed key, uint256 indexed purpose, uint256 indexed keyType)");
/** Identities per eth_getLogs call (providers limit the address list). */
const LOG_ADDRESSES = 500;

/**
 * What `account` holds on `on` now: its ERC-734 purposes on the identities of the organisation's system (found by
 * their KeyAdded logs, then read), the contract identities it manages, and the paymaster it owns.
 */
export async function heldPowers(
  on: ServedChain,
  ledger: LedgerDb,
  system: string,
  account: Address,
): Promise<HeldPower[]> {
  const identities = await ledger
    .selectFrom("identity")
    .select(["id", "isContract"])
    .where("system", "=", indexedHex(system))
    .orderBy("id")
    .execute();
  const powers: HeldPower[] = [];
  const key = addressKey(account);
  const wallets = identities.filter((row) => !row.isContract).map((row) => getAddress(row.id));
  const found = new Set<Address>();
  for (let at = 0; at < wallets.length; at += LOG_ADDRESSES) {
    const logs = await on.client.getLogs({
      address: wallets.slice(at, at + LOG_ADDRESSES),
      event: KEY_ADDED,
      args: { key },
      fromBlock: 0n,
    });
    for (const log of logs) found.add(getAddress(log.address));
  }
  for (const identity of found) {
    const purposes = await on.client.readContract({
      address: identity,
      abi: IDENTITY,
      functionName: "getKeyPurposes",
      args: [key],
    });
    for (const purpose of managementLast(purposes.map(Number)))
      powers.push({ kind: "identityKey", chainId: on.chainId, contract: identity, purpose });
  }
  for (const row of identities.filter((r) => r.isContract)) {
    const manager = await on.client.readContract({
      address: getAddress(row.id),
      abi: CONTRACT_IDENTITY,
      functionName: "manager",
    });
    if (sameAddress(manager, account))
      powers.push({ kind: "identityManager", chainId: on.chainId, contract: getAddress(row.id) });
  }
  const paymaster = await paymasterOf(on, account);
  if (paymaster) powers.push({ kind: "owner", chainId: on.chainId, contract: paymaster });
  return powers;
}

/** MANAGEMENT last: it is what lets a key remove its other purposes. */
export function managementLast(purposes: readonly number[]): number[] {
  return [...purposes].sort((a, b) => Number(a === MANAGEMENT) - Number(b === MANAGEMENT));
}

/** The paymaster `account` created (the factory derives its address from its creator) if it still owns it. */
async function paymasterOf(on: ServedChain, account: Address): Promise<Address | undefined> {
  const factory = on.deployment.paymasterFactory;
  if (!factory) return undefined;
  const address = await on.client.readContract({
    address: factory,
    abi: SponsoringPaymasterFactoryAbi,
    functionName: "getAddress",
    args: [account],
  });
  const code = await on.client.getCode({ address });
  if (!code || code === "0x") return undefined;
  const owner = await on.client.readContract({ address, abi: OWNABLE, functionName: "owner" });
  return sameAddress(owner, account) ? address : undefined;
}

export function hasPurpose(on: ServedChain, identity: string, account: Address, purpose: number) {
  return on.client.readContract({
    address: getAddress(identity),
    abi: IDENTITY,
    functionName: "keyHasPurpose",
    args: [addressKey(account), BigInt(purpose)],
  });
}

/** The write giving `successor` an identity key's purpose (a single-holder seat moves at the revocations step). */
export function grantData(power: HeldPower, successor: Address): Hex | undefined {
  if (power.kind !== "identityKey") return undefined;
  return encodeFunctionData({
    abi: IDENTITY,
    functionName: "addKey",
    args: [addressKey(successor), BigInt(power.purpose), ECDSA_KEY],
  });
}

/** The write taking the power from `old`: its key removed, or the seat handed to `successor`. */
export function revocationData(power: HeldPower, old: Address, successor: Address): Hex {
  switch (power.kind) {
    case "identityKey":
      return encodeFunctionData({
        abi: IDENTITY,
        functionName: "removeKey",
        args: [addressKey(old), BigInt(power.purpose)],
      });
    case "identityManager":
      return encodeFunctionData({ abi: CONTRACT_IDENTITY, functionName: "setManager", args: [successor] });
    default: // a seat moving in two steps: proposed here (transferOwnership for the paymaster)
      return seatProposalData(power, successor);
  }
}

/** The request kind of revocationData's write. */
export function revocationKind(power: HeldPower): string {
  if (power.kind === "identityKey") return "custody.removeKey";
  if (power.kind === "identityManager") return "custody.setManager";
  return SEAT_KINDS[power.kind].propose;
}

/**
 * The successor's write completing a hand-over of `old`'s seat (a two-step transfer is pending until the successor
 * accepts), with its request kind; none for a power that moves in one write.
 */
export function acceptance(power: HeldPower, old: Address): { kind: string; data: Hex } | undefined {
  if (power.kind === "identityKey" || power.kind === "identityManager") return undefined;
  return { kind: SEAT_KINDS[power.kind].accept, data: seatAcceptanceData(power, old) };
}

/** A stable name of the power, for Idempotency-Keys and descriptions. */
export function powerName(power: HeldPower): string {
  const purpose = power.kind === "identityKey" ? `:${power.purpose}` : "";
  const token = power.kind === "collateralOracle" ? `:${power.token.toLowerCase()}` : ""; // one module, many tokens
  return `${power.kind}:${power.chainId}:${power.contract.toLowerCase()}${purpose}${token}`;
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
