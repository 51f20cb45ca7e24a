import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

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
});
