// The exchange rate feeds: the registry creates one AggregatorV3-shaped feed per pair on first use (announcing it),
// writes rounds with Chainlink's AnswerUpdated, and refuses strangers, malformed codes and foreign writers.
import { type Address, getAddress, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventsNamed,
  expectRevert,
  ROLES,
  type SystemFixture,
  startSystemFixture,
  theEvent,
} from "./system-fixture.ts";

const R = "ExchangeRateFeedRegistry";
const F = "ExchangeRateFeed";
let f: SystemFixture;
let registry: Address;

beforeAll(async () => {
  f = await startSystemFixture();
  const impl = await f.deploy(R, [f.forwarder]);
  registry = await f.clone(R, impl, [f.accessManager, zeroAddress]);
  await f.send(0, f.accessManager, "SystemAccessManager", "grantRoles", [f.manager, [ROLES.SYSTEM_MANAGER]]);
});
afterAll(async () => {
  await f?.chain.stop();
});

describe("ExchangeRateFeedRegistry and ExchangeRateFeed", () => {
  let usd: Address;

  it("creates a pair's feed on first publish, then adds rounds to it", async () => {
    const first = await f.send(1, registry, R, "publishRates", [
      ["EUR", "EUR"],
      ["USD", "JPY"],
      [105_120_000n, 16_142_000_000n],
      1_764_082_800n,
    ]);
    const created = eventsNamed(first.logs, "ExchangeRateFeedCreated");
    expect(created.map((e) => [e.args.baseCurrency, e.args.quoteCurrency, e.args.decimals])).toEqual([
      ["EUR", "USD", 8],
      ["EUR", "JPY", 8],
    ]);
    usd = getAddress(created[0].args.feed as string);
    expect(await f.read(registry, R, "feed", ["EUR", "USD"])).toBe(usd);
    expect(eventsNamed(first.logs, "AnswerUpdated").map((e) => e.args)).toEqual([
      { current: 105_120_000n, roundId: 1n, updatedAt: 1_764_082_800n },
      { current: 16_142_000_000n, roundId: 1n, updatedAt: 1_764_082_800n },
    ]);

    const second = await f.send(1, registry, R, "publishRates", [["EUR"], ["USD"], [104_980_000n], 1_764_169_200n]);
    expect(eventsNamed(second.logs, "ExchangeRateFeedCreated")).toHaveLength(0);
    expect(theEvent(second.logs, "AnswerUpdated")).toEqual({
      current: 104_980_000n,
      roundId: 2n,
      updatedAt: 1_764_169_200n,
    });
    expect(await f.read(registry, R, "feeds")).toHaveLength(2);
  });

  it("answers in the AggregatorV3 shape", async () => {
    expect(await f.read(usd, F, "decimals")).toBe(8);
    expect(await f.read(usd, F, "description")).toBe("EUR / USD");
    expect(await f.read(usd, F, "version")).toBe(1n);
    const [roundId, answer, startedAt, updatedAt, answeredInRound] = await f.read<bigint[]>(usd, F, "latestRoundData");
    expect([roundId, answer, updatedAt, answeredInRound]).toEqual([2n, 104_980_000n, 1_764_169_200n, 2n]);
    expect(startedAt).toBeGreaterThan(0n);
    expect((await f.read<bigint[]>(usd, F, "getRoundData", [1n]))[1]).toBe(105_120_000n);
    await expectRevert(f.read(usd, F, "getRoundData", [9n]), "NoDataPresent");
  });

  it("refuses strangers, malformed codes, equal codes, bad answers and writes that bypass the registry", async () => {
    await expectRevert(f.send(2, registry, R, "createFeed", ["EUR", "GBP"]), "AccessControlUnauthorizedAccount", [
      f.outsider,
      ROLES.SYSTEM_MANAGER,
    ]);
    await expectRevert(f.send(1, registry, R, "createFeed", ["eur", "GBP"]), "InvalidCurrency", ["eur"]);
    await expectRevert(f.send(1, registry, R, "createFeed", ["EURO", "GBP"]), "InvalidCurrency", ["EURO"]);
    await expectRevert(f.send(1, registry, R, "createFeed", ["EUR", "EUR"]), "SameCurrency", ["EUR"]);
    await expectRevert(f.send(1, registry, R, "publishRates", [["EUR"], ["USD"], [0n], 1n]), "InvalidAnswer", [0n]);
    await expectRevert(f.send(1, registry, R, "publishRates", [["EUR"], [], [1n], 1n]), "LengthMismatch", [1n, 0n, 1n]);
    await expectRevert(f.send(1, usd, F, "updateAnswer", [1n, 1n]), "OnlyRegistry", [f.manager]);
  });
});
