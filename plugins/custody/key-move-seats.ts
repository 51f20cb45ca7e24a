// The single-holder seats of the platform's add-ons and compliance modules a key may hold, for the move to the HSM
// (key-move-task.ts): the owner of a fixed yield schedule, the issuer of a token sale, an account an open XvP
// settlement names (a party, a recipient or its creator) and a token's collateral oracle. Found from the index, then
// confirmed on chain: the key holds the seat now, and the contract can hand it over (one made before the handovers
// existed has no pending-successor getter, so it is left out). Each moves in two steps: proposed by the old key,
// accepted by its successor.

import { sql } from "kysely";
import { type Address, decodeAbiParameters, encodeFunctionData, getAddress, type Hex, parseAbi } from "viem";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";

/** A seat found here; a fixed yield schedule's owner is an `owner` seat as the paymaster's (both Ownable2Step). */
export type HeldSeat =
  | { kind: "owner"; chainId: number; contract: string }
  | { kind: "tokenSaleIssuer"; chainId: number; contract: string }
  | { kind: "xvpAccount"; chainId: number; contract: string }
  | { kind: "collateralOracle"; chainId: number; contract: string; token: string };

export const COLLATERAL_TYPE_ID = "collateral-v2";

const OWNABLE_2STEP = parseAbi([
  "function owner() view returns (address)",
  "function pendingOwner() view returns (address)",
  "function transferOwnership(address newOwner)",
  "function acceptOwnership()",
]);
const TOKEN_SALE = parseAbi([
  "function issuer() view returns (address)",
  "function pendingIssuer() view returns (address)",
  "function transferIssuer(address newIssuer)",
  "function acceptIssuer()",
]);
const XVP = parseAbi([
  "function creator() view returns (address)",
  "function flows() view returns ((address asset, address from, address to, uint256 amount)[])",
  "function executed() view returns (bool)",
  "function cancelled() view returns (bool)",
  "function cutoff() view returns (uint64)",
  "function pendingSuccessorOf(address account) view returns (address)",
  "function proposeHandover(address successor)",
  "function acceptHandover(address account)",
]);
const COLLATERAL = parseAbi([
  "function configOf(address token) view returns (address oracle, uint32 ratioBps)",
  "function pendingOracleOf(address token) view returns (address)",
  "function transferOracle(address token, address newOracle)",
  "function acceptOracle(address token)",
]);

/** The request kinds of each seat's two steps: proposed by the old key, accepted by its successor. */
export const SEAT_KINDS: Record<HeldSeat["kind"], { propose: string; accept: string }> = {
  owner: { propose: "custody.transferOwnership", accept: "custody.acceptOwnership" },
  tokenSaleIssuer: { propose: "custody.transferIssuer", accept: "custody.acceptIssuer" },
  xvpAccount: { propose: "custody.proposeHandover", accept: "custody.acceptHandover" },
  collateralOracle: { propose: "custody.transferOracle", accept: "custody.acceptOracle" },
};

/** The request kinds this file adds to the plugin's (the paymaster's owner kinds are declared there already). */
export const SEAT_MUTATION_KINDS = Object.fromEntries(
  Object.entries(SEAT_KINDS)
    .filter(([kind]) => kind !== "owner")
    .flatMap(([, kinds]) => [
      [kinds.propose, {}],
      [kinds.accept, {}],
    ]),
);

/** What `account` holds now on `on`: the seats the index names it in, each confirmed on chain. */
export async function heldSeats(
  on: ServedChain,
  ledger: LedgerDb,
  account: Address,
  warn: (message: string, details: Record<string, unknown>) => void,
): Promise<HeldSeat[]> {
  const chainId = on.chainId;
  const now = (await on.client.getBlock()).timestamp;
  const queries = seatQueries(ledger, chainId, account, now);
  const candidates: HeldSeat[] = [];
  const contract = (row: { id: string }) => ({ chainId, contract: getAddress(row.id) });
  for (const row of await queries.schedules.execute()) candidates.push({ kind: "owner", ...contract(row) });
  for (const row of await queries.sales.execute()) candidates.push({ kind: "tokenSaleIssuer", ...contract(row) });
  for (const row of await queries.settlements.execute()) candidates.push({ kind: "xvpAccount", ...contract(row) });
  for (const row of await queries.collateral.execute()) {
    if (collateralOracle(row.params) !== indexedHex(account)) continue;
    const module = getAddress(row.module);
    candidates.push({ kind: "collateralOracle", chainId, contract: module, token: getAddress(row.token) });
  }
  const held: HeldSeat[] = [];
  for (const seat of candidates) {
    const state = await seatState(on, seat, account, now);
    if (state === "held") held.push(seat);
    else if (state === "cannotMove")
      warn("custody migration: a seat of the old key cannot be handed over (its contract predates hand-overs)", {
        ...seat,
      });
  }
  return held;
}

/**
 * The index's candidates on one chain: the schedules `account` owns, the sales it is the issuer of with proceeds still
 * to take, the open settlements naming it (creator, sender or recipient; not executed, cancelled nor past the cutoff at
 * `now`), and every collateral-v2 module in force (its oracle is in the parameters: collateralOracle).
 */
export function seatQueries(ledger: LedgerDb, chainId: number, account: Address, now: bigint) {
  const holder = indexedHex(account);
  return {
    schedules: ledger
      .selectFrom("fixedYieldSchedule")
      .select("id")
      .where("chainId", "=", chainId)
      .where("owner", "=", holder)
      .orderBy("id"),
    sales: ledger
      .selectFrom("tokenSale")
      .select("id")
      .where("chainId", "=", chainId)
      .where("issuer", "=", holder)
      .where("proceedsWithdrawn", "=", false)
      .orderBy("id"),
    settlements: ledger
      .selectFrom("xvpSettlement")
      .select("id")
      .where("chainId", "=", chainId)
      .where("executedAt", "is", null)
      .where("cancelledAt", "is", null)
      .where("cutoff", ">=", now)
      .where((eb) => eb.or([eb("creator", "=", holder), sql<boolean>`${holder} = any(accounts)`]))
      .orderBy("id"),
    collateral: ledger
      .selectFrom("tokenComplianceModule")
      .select(["token", "module", "params"])
      .where("chainId", "=", chainId)
      .where("typeId", "=", COLLATERAL_TYPE_ID)
      .orderBy("token"),
  };
}

/** The oracle a collateral-v2 module's parameters name (lower case), or undefined when undecodable. */
export function collateralOracle(params: Hex): string | undefined {
  try {
    const [oracle] = decodeAbiParameters([{ type: "address" }, { type: "uint32" }], params);
    return indexedHex(oracle);
  } catch {
    return undefined;
  }
}

/** Whether `account` holds the seat now, and the contract can hand it over (its pending getter answers). */
async function seatState(
  on: ServedChain,
  seat: HeldSeat,
  account: Address,
  now: bigint,
): Promise<"held" | "notHeld" | "cannotMove"> {
  const address = getAddress(seat.contract);
  const read = on.client.readContract;
  let holds: boolean;
  switch (seat.kind) {
    case "owner":
      holds = same(await read({ address, abi: OWNABLE_2STEP, functionName: "owner" }), account);
      break;
    case "tokenSaleIssuer":
      holds = same(await read({ address, abi: TOKEN_SALE, functionName: "issuer" }), account);
      break;
    case "xvpAccount": {
      const [creator, flows, executed, cancelled, cutoff] = await Promise.all([
        read({ address, abi: XVP, functionName: "creator" }),
        read({ address, abi: XVP, functionName: "flows" }),
        read({ address, abi: XVP, functionName: "executed" }),
        read({ address, abi: XVP, functionName: "cancelled" }),
        read({ address, abi: XVP, functionName: "cutoff" }),
      ]);
      const named = same(creator, account) || flows.some((f) => same(f.from, account) || same(f.to, account));
      holds = named && !executed && !cancelled && BigInt(cutoff) >= now;
      break;
    }
    case "collateralOracle": {
      const [oracle] = await read({
        address,
        abi: COLLATERAL,
        functionName: "configOf",
        args: [getAddress(seat.token)],
      });
      holds = same(oracle, account);
      break;
    }
  }
  if (!holds) return "notHeld";
  try {
    await pendingOf(on, seat, account);
    return "held";
  } catch {
    return "cannotMove";
  }
}

function pendingOf(on: ServedChain, seat: HeldSeat, account: Address) {
  const address = getAddress(seat.contract);
  switch (seat.kind) {
    case "owner":
      return on.client.readContract({ address, abi: OWNABLE_2STEP, functionName: "pendingOwner" });
    case "tokenSaleIssuer":
      return on.client.readContract({ address, abi: TOKEN_SALE, functionName: "pendingIssuer" });
    case "xvpAccount":
      return on.client.readContract({ address, abi: XVP, functionName: "pendingSuccessorOf", args: [account] });
    case "collateralOracle":
      return on.client.readContract({
        address,
        abi: COLLATERAL,
        functionName: "pendingOracleOf",
        args: [getAddress(seat.token)],
      });
  }
}

/** The old key's write proposing `successor` for the seat (of kind SEAT_KINDS[seat.kind].propose). */
export function seatProposalData(seat: HeldSeat, successor: Address): Hex {
  switch (seat.kind) {
    case "owner":
      return encodeFunctionData({ abi: OWNABLE_2STEP, functionName: "transferOwnership", args: [successor] });
    case "tokenSaleIssuer":
      return encodeFunctionData({ abi: TOKEN_SALE, functionName: "transferIssuer", args: [successor] });
    case "xvpAccount":
      return encodeFunctionData({ abi: XVP, functionName: "proposeHandover", args: [successor] });
    case "collateralOracle":
      return encodeFunctionData({
        abi: COLLATERAL,
        functionName: "transferOracle",
        args: [getAddress(seat.token), successor],
      });
  }
}

/** The successor's write accepting the seat `old` proposed it for (of kind SEAT_KINDS[seat.kind].accept). */
export function seatAcceptanceData(seat: HeldSeat, old: Address): Hex {
  switch (seat.kind) {
    case "owner":
      return encodeFunctionData({ abi: OWNABLE_2STEP, functionName: "acceptOwnership" });
    case "tokenSaleIssuer":
      return encodeFunctionData({ abi: TOKEN_SALE, functionName: "acceptIssuer" });
    case "xvpAccount":
      return encodeFunctionData({ abi: XVP, functionName: "acceptHandover", args: [old] });
    case "collateralOracle":
      return encodeFunctionData({ abi: COLLATERAL, functionName: "acceptOracle", args: [getAddress(seat.token)] });
  }
}

function same(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
