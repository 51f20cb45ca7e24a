import { describe, expect, it } from "vitest";
import { loadConfig, reorgDepth } from "./config.ts";

describe("configuration", () => {
  it("allows private webhook targets by default only when the database and the chain are embedded", () => {
    expect(loadConfig({}).WEBHOOKS_ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(loadConfig({ DATABASE_URL: "postgres://db/x" }).WEBHOOKS_ALLOW_PRIVATE_TARGETS).toBe(false);
    expect(loadConfig({ RPC_URL: "https://rpc.example.com" }).WEBHOOKS_ALLOW_PRIVATE_TARGETS).toBe(false);
    expect(loadConfig({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "false" }).WEBHOOKS_ALLOW_PRIVATE_TARGETS).toBe(false);
    expect(
      loadConfig({ DATABASE_URL: "postgres://db/x", WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" })
        .WEBHOOKS_ALLOW_PRIVATE_TARGETS,
    ).toBe(true);
    expect(() => loadConfig({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "yes" })).toThrow(/WEBHOOKS_ALLOW_PRIVATE_TARGETS/);
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
});
