import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig, reorgDepth } from "./config.ts";

describe("configuration", () => {
  it("reads the webhook reorg depth for every chain, per chain, or both", () => {
    expect(reorgDepth(loadConfig({}).WEBHOOK_REORG_DEPTH, 1)).toBe(12);
    expect(reorgDepth("5", 31337)).toBe(5);
    expect(reorgDepth("1:64,31337:3", 31337)).toBe(3);
    expect(reorgDepth("1:64,31337:3", 10)).toBe(12);
    expect(reorgDepth("31337:2,8", 31337)).toBe(2);
    expect(reorgDepth("31337:2,8", 1)).toBe(8);
    expect(() => loadConfig({ WEBHOOK_REORG_DEPTH: "deep" })).toThrow(/WEBHOOK_REORG_DEPTH/);
  });

  it("serves one embedded anvil by default, EMBEDDED_CHAINS of them on consecutive ids and ports", () => {
    expect(loadConfig({}).chains).toEqual([{ chainId: 31337, anvilPort: 8545, finalityDepth: 12 }]);
    const two = loadConfig({ EMBEDDED_CHAINS: "2", ANVIL_PORT: "9000", WEBHOOK_REORG_DEPTH: "12,31338:3" }).chains;
    expect(two.map((c) => [c.chainId, c.anvilPort, c.finalityDepth])).toEqual([
      [31337, 9000, 12],
      [31338, 9001, 3],
    ]);
  });

  it("reads CHAINS: external chains with their own finality depth, refusing the single-chain settings beside it", () => {
    const chains = JSON.stringify([
      { id: 1, rpcUrl: "https://one.example.com", finalityDepth: 64 },
      { id: 10, rpcUrl: "https://ten.example.com", wsUrl: "wss://ten.example.com", indexRpcLanes: 4 },
    ]);
    const config = loadConfig({ CHAINS: chains });
    expect(config.chains).toEqual([
      { chainId: 1, rpcUrl: "https://one.example.com", finalityDepth: 64 },
      {
        ...{ chainId: 10, rpcUrl: "https://ten.example.com", wsUrl: "wss://ten.example.com" },
        ...{ finalityDepth: 12, indexRpcLanes: 4 },
      },
    ]);
    expect(() => loadConfig({ CHAINS: chains, RPC_URL: "https://rpc.example.com" })).toThrow(/CHAINS replaces RPC_URL/);
    expect(() => loadConfig({ CHAINS: "[]" })).toThrow(/CHAINS/);
    expect(() => loadConfig({ CHAINS: '[{"id":1,"rpcUrl":"https://a.example.com","indexRpcLanes":0}]' })).toThrow(
      /indexRpcLanes/,
    );
    expect(() => loadConfig({ CHAINS: '[{"id":1,"rpcUrl":"https://a.example.com","extra":1}]' })).toThrow(/CHAINS/);
    const twice = JSON.stringify([
      { id: 1, rpcUrl: "https://a.example.com" },
      { id: 1, rpcUrl: "https://b.example.com" },
    ]);
    expect(() => loadConfig({ CHAINS: twice })).toThrow(/twice/);
  });

  describe("plugin settings", () => {
    const plugins = [
      { id: "carrots", settings: z.object({ CARROTS_PER_DAY: z.coerce.number().int().min(1).default(3) }) },
      { id: "plain" },
    ];

    it("reads each plugin's settings, with their defaults, under its id", () => {
      expect(loadConfig({}, plugins).pluginSettings.get("carrots")).toEqual({ CARROTS_PER_DAY: 3 });
      expect(loadConfig({ CARROTS_PER_DAY: "7" }, plugins).pluginSettings.get("carrots")).toEqual({
        CARROTS_PER_DAY: 7,
      });
      expect(loadConfig({}, plugins).pluginSettings.has("plain")).toBe(false);
    });

    it("refuses an invalid plugin setting with one line naming the variable and its plugin", () => {
      expect(() => loadConfig({ CARROTS_PER_DAY: "0", PORT: "x" }, plugins)).toThrow(
        /^Invalid configuration:\n {2}PORT: .+\n {2}CARROTS_PER_DAY \(plugin carrots\): Too small.+$/,
      );
    });

    it("refuses a setting two owners declare", () => {
      const again = { id: "more-carrots", settings: plugins[0].settings };
      expect(() => loadConfig({}, [...plugins, again])).toThrow(
        'Plugin "more-carrots" declares the setting CARROTS_PER_DAY, which carrots declares too',
      );
      expect(() => loadConfig({}, [{ id: "ports", settings: z.object({ PORT: z.string() }) }])).toThrow(
        "which the host core declares too",
      );
    });
  });
});
