// Finding the add-ons' and compliance modules' seats a key holds (the index's candidates, without a database), and the
// two writes that hand each over.
import { decodeFunctionData, encodeAbiParameters, parseAbi } from "viem";
import { describe, expect, it } from "vitest";
import { RowCamelCasePlugin } from "../../host/db/camel-case-rows.ts";
import { compilingOnly } from "../../host/db/compiling-only.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { acceptance, powerName, revocationData, revocationKind } from "./key-move-powers.ts";
import { collateralOracle, type HeldSeat, SEAT_MUTATION_KINDS, seatQueries } from "./key-move-seats.ts";

// As the platform's ledger connection names columns.
const ledger = compilingOnly([new RowCamelCasePlugin()]) as unknown as LedgerDb;

const OLD = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const NEW = "0x2222222222222222222222222222222222222222";
const CONTRACT = "0x3333333333333333333333333333333333333333";
const TOKEN = "0x4444444444444444444444444444444444444444";
const ABI = parseAbi([
  "function transferOwnership(address newOwner)",
  "function acceptOwnership()",
  "function transferIssuer(address newIssuer)",
  "function acceptIssuer()",
  "function proposeHandover(address successor)",
  "function acceptHandover(address account)",
  "function transferOracle(address token, address newOracle)",
  "function acceptOracle(address token)",
]);
const decode = (data: `0x${string}` | undefined) => decodeFunctionData({ abi: ABI, data: data as `0x${string}` });

describe("the seats a key move hands over, found from the index", () => {
  const queries = seatQueries(ledger, 31337, OLD, 1_000n);
  const holder = OLD.toLowerCase();

  it("finds the schedules the key owns and the sales it is the issuer of, with proceeds still to take", () => {
    const schedules = queries.schedules.compile();
    expect(schedules.sql).toContain('from "fixed_yield_schedule" where "chain_id" = $1 and "owner" = $2');
    expect(schedules.parameters).toEqual([31337, holder]);
    const sales = queries.sales.compile();
    expect(sales.sql).toContain(
      'from "token_sale" where "chain_id" = $1 and "issuer" = $2 and "proceeds_withdrawn" = $3',
    );
    expect(sales.parameters).toEqual([31337, holder, false]);
  });

  it("finds the open settlements naming the key as creator, sender or recipient", () => {
    const settlements = queries.settlements.compile();
    expect(settlements.sql).toContain('"executed_at" is null and "cancelled_at" is null and "cutoff" >= $2');
    expect(settlements.sql).toContain('("creator" = $3 or $4 = any(accounts))');
    expect(settlements.parameters).toEqual([31337, 1_000n, holder, holder]);
  });

  it("reads the oracle from every collateral-v2 module's parameters", () => {
    const collateral = queries.collateral.compile();
    expect(collateral.sql).toContain('from "token_compliance_module" where "chain_id" = $1 and "type_id" = $2');
    expect(collateral.parameters).toEqual([31337, "collateral-v2"]);
    const params = encodeAbiParameters([{ type: "address" }, { type: "uint32" }], [OLD, 12_500]);
    expect(collateralOracle(params)).toBe(holder);
    expect(collateralOracle("0x1234")).toBeUndefined();
  });

  it("hands each seat over in two writes of their own kinds: proposed by the old key, accepted by the successor", () => {
    const seat = (kind: HeldSeat["kind"]): HeldSeat =>
      kind === "collateralOracle"
        ? { kind, chainId: 1, contract: CONTRACT, token: TOKEN }
        : { kind, chainId: 1, contract: CONTRACT };
    const steps = (power: HeldSeat) => ({
      propose: [revocationKind(power), decode(revocationData(power, OLD, NEW))],
      accept: [acceptance(power, OLD)?.kind, decode(acceptance(power, OLD)?.data)],
    });
    expect(steps(seat("owner"))).toEqual({
      propose: ["custody.transferOwnership", { functionName: "transferOwnership", args: [NEW] }],
      accept: ["custody.acceptOwnership", { functionName: "acceptOwnership", args: undefined }],
    });
    expect(steps(seat("tokenSaleIssuer"))).toEqual({
      propose: ["custody.transferIssuer", { functionName: "transferIssuer", args: [NEW] }],
      accept: ["custody.acceptIssuer", { functionName: "acceptIssuer", args: undefined }],
    });
    expect(steps(seat("xvpAccount"))).toEqual({
      propose: ["custody.proposeHandover", { functionName: "proposeHandover", args: [NEW] }],
      accept: ["custody.acceptHandover", { functionName: "acceptHandover", args: [OLD] }],
    });
    expect(steps(seat("collateralOracle"))).toEqual({
      propose: ["custody.transferOracle", { functionName: "transferOracle", args: [TOKEN, NEW] }],
      accept: ["custody.acceptOracle", { functionName: "acceptOracle", args: [TOKEN] }],
    });
    // The plugin declares each new kind; one module's oracle seats of two tokens are two powers.
    expect(Object.keys(SEAT_MUTATION_KINDS).sort()).toEqual([
      "custody.acceptHandover",
      "custody.acceptIssuer",
      "custody.acceptOracle",
      "custody.proposeHandover",
      "custody.transferIssuer",
      "custody.transferOracle",
    ]);
    const other = { kind: "collateralOracle", chainId: 1, contract: CONTRACT, token: NEW } as const;
    expect(powerName(seat("collateralOracle"))).not.toBe(powerName(other));
  });
});
