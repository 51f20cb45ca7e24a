import { describe, expect, it } from "vitest";
import { loadConfig } from "../../host/config.ts";
import { privateTargetRanges, WebhookSettings } from "./settings.ts";

const webhooks = [{ id: "webhooks", settings: WebhookSettings }];
const load = (env: NodeJS.ProcessEnv) => loadConfig(env, webhooks);
const settingsOf = (env: NodeJS.ProcessEnv) => load(env).pluginSettings.get("webhooks") as WebhookSettings;

describe("the webhooks' settings", () => {
  it("lets webhooks target loopback by default only when the database and the chain are embedded", () => {
    const ranges = (env: NodeJS.ProcessEnv) => privateTargetRanges(settingsOf(env), load(env));
    expect(ranges({})).toEqual(["127.0.0.0/8", "::1/128"]);
    expect(ranges({ DATABASE_URL: "postgres://db/x" })).toEqual([]);
    expect(ranges({ RPC_URL: "https://rpc.example.com" })).toEqual([]);
    expect(ranges({ CHAINS: JSON.stringify([{ id: 1, rpcUrl: "https://one.example.com" }]) })).toEqual([]);
    expect(ranges({ WEBHOOKS_PRIVATE_TARGET_RANGES: "none" })).toEqual([]);
    expect(
      ranges({ DATABASE_URL: "postgres://db/x", WEBHOOKS_PRIVATE_TARGET_RANGES: " 10.20.0.0/16, fd12::/64" }),
    ).toEqual(["10.20.0.0/16", "fd12::/64"]);
  });

  it("refuses what is not a CIDR range, and the removed setting", () => {
    expect(() => load({ WEBHOOKS_PRIVATE_TARGET_RANGES: "10.0.0.0/33" })).toThrow(
      /WEBHOOKS_PRIVATE_TARGET_RANGES \(plugin webhooks\): 10\.0\.0\.0\/33 is not a CIDR/,
    );
    expect(() => load({ WEBHOOKS_PRIVATE_TARGET_RANGES: "true" })).toThrow(/WEBHOOKS_PRIVATE_TARGET_RANGES/);
    expect(() => load({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" })).toThrow(
      /WEBHOOKS_ALLOW_PRIVATE_TARGETS \(plugin webhooks\): was replaced by WEBHOOKS_PRIVATE_TARGET_RANGES/,
    );
  });

  it("reads the retry base in seconds, fractions allowed", () => {
    expect(settingsOf({}).WEBHOOK_RETRY_BASE_SECONDS).toBe(60);
    expect(settingsOf({ WEBHOOK_RETRY_BASE_SECONDS: "0.2" }).WEBHOOK_RETRY_BASE_SECONDS).toBe(0.2);
  });
});
