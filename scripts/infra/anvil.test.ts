import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../host/config.ts";
import { freePort } from "../../test/support/stack.ts";
import { historyStates, miningArguments, rpcCall, startChain } from "./anvil.ts";
import { stateFiles } from "./chain-state.ts";

describe("the embedded chain's mining", () => {
  it("mines each transaction at once by default, with idle blocks only when a block time is given", () => {
    expect(miningArguments("instant", 0)).toEqual([]);
    expect(miningArguments("instant", 2)).toEqual(["--block-time", "2", "--mixed-mining"]);
  });

  it("mines on an interval, fractions of a second allowed, so a burst fills blocks", () => {
    expect(miningArguments("interval", 1)).toEqual(["--block-time", "1"]);
    expect(miningArguments("interval", 0.25)).toEqual(["--block-time", "0.25"]);
    expect(() => miningArguments("interval", 0)).toThrow(/ANVIL_BLOCK_TIME_SECONDS/);
  });

  it("reads ANVIL_MINING and a fractional ANVIL_BLOCK_TIME_SECONDS from the environment", () => {
    const config = loadConfig({ ANVIL_MINING: "interval", ANVIL_BLOCK_TIME_SECONDS: "0.5" });
    expect(config.ANVIL_MINING).toBe("interval");
    expect(config.ANVIL_BLOCK_TIME_SECONDS).toBe(0.5);
    expect(loadConfig({}).ANVIL_MINING).toBe("instant");
    expect(() => loadConfig({ ANVIL_MINING: "sometimes" })).toThrow();
  });
});

describe("the embedded chain's state", () => {
  const temps: string[] = [];
  afterEach(() => {
    for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const someone = "0x00000000000000000000000000000000000000aa";

  it("is saved on stop and loaded at the next start; a refused newest file falls back to the kept copy", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "anvil-state-"));
    temps.push(dataDir);
    const said: string[] = [];
    const start = async () => startChain({ dataDir, port: await freePort(), say: (line) => said.push(line) });
    let chain = await start();
    await rpcCall(chain.rpcUrl, "anvil_setBalance", [someone, "0x2a"]);
    await chain.stop();
    chain = await start();
    expect(await rpcCall(chain.rpcUrl, "eth_getBalance", [someone, "latest"])).toBe("0x2a");
    await chain.stop(); // now the kept copy holds the balance too
    const files = stateFiles(join(dataDir, "anvil"));
    writeFileSync(files.current, gzipSync(JSON.stringify({ accounts: {} }))); // readable, but not a state anvil takes
    chain = await start();
    expect(await rpcCall(chain.rpcUrl, "eth_getBalance", [someone, "latest"])).toBe("0x2a");
    await chain.stop();
    expect(said).toEqual([
      expect.stringMatching(/^The chain state .*state\.json\.gz cannot be loaded \(error: .*block.*kept copy/),
    ]);
  });

  it("keeps the block states a reorg as deep as the index follows needs, and no more", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "anvil-history-"));
    temps.push(dataDir);
    const chain = await startChain({ dataDir, port: await freePort(), ephemeral: true, reorgDepth: 3 });
    try {
      const kept = historyStates(3);
      expect(kept).toBe(31); // Ponder's 30 unsettled blocks of a local chain are deeper than 3
      await rpcCall(chain.rpcUrl, "anvil_mine", ["0x50"]);
      await rpcCall(chain.rpcUrl, "anvil_reorg", [kept - 1, []]);
      await expect(rpcCall(chain.rpcUrl, "anvil_reorg", [kept, []])).rejects.toThrow(/unavailable/);
    } finally {
      await chain.stop();
    }
    expect(historyStates(64)).toBe(65);
  });
});
