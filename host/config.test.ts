import { describe, expect, it } from "vitest";
import { loadConfig, reorgDepth } from "./config.ts";

describe("configuration", () => {
  it("lets webhooks target loopback by default only when the database and the chain are embedded", () => {
    const ranges = (env: NodeJS.ProcessEnv) => loadConfig(env).WEBHOOKS_PRIVATE_TARGET_RANGES;
    expect(ranges({})).toEqual(["127.0.0.0/8", "::1/128"]);
    expect(ranges({ DATABASE_URL: "postgres://db/x" })).toEqual([]);
    expect(ranges({ RPC_URL: "https://rpc.example.com" })).toEqual([]);
    expect(ranges({ WEBHOOKS_PRIVATE_TARGET_RANGES: "none" })).toEqual([]);
    expect(
      ranges({ DATABASE_URL: "postgres://db/x", WEBHOOKS_PRIVATE_TARGET_RANGES: " 10.20.0.0/16, fd12::/64" }),
    ).toEqual(["10.20.0.0/16", "fd12::/64"]);
    expect(() => loadConfig({ WEBHOOKS_PRIVATE_TARGET_RANGES: "10.0.0.0/33" })).toThrow(
      /10\.0\.0\.0\/33 is not a CIDR/,
    );
    expect(() => loadConfig({ WEBHOOKS_PRIVATE_TARGET_RANGES: "true" })).toThrow(/WEBHOOKS_PRIVATE_TARGET_RANGES/);
    expect(() => loadConfig({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" })).toThrow(
      /replaced by WEBHOOKS_PRIVATE_TARGET_RANGES/,
    );
    expect(loadConfig({ WEBHOOK_RETRY_BASE_SECONDS: "0.2" }).WEBHOOK_RETRY_BASE_SECONDS).toBe(0.2);
  });

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
    expect(config.WEBHOOKS_PRIVATE_TARGET_RANGES).toEqual([]);
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
});
