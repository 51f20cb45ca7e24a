// The built-in plugin list composes (every requirement met), and without the bundler the platform refuses to start
// naming smart-wallets' requirement (what composePlugins does when scripts/platform-context.ts starts a process).
import { describe, expect, it } from "vitest";
import type { Logger } from "../host/logger.ts";
import type { HostContext } from "../host/plugin.ts";
import { composePlugins, pluginContext } from "../host/plugin-host.ts";
import { plugins } from "./index.ts";

describe("the built-in plugins' requirements", () => {
  it("are all met by the plugin list", () => {
    expect(() => composePlugins(plugins)).not.toThrow();
  });

  it("refuse the list without the bundler, naming smart-wallets and the user-operation pool", () => {
    const withoutBundler = plugins.filter((plugin) => plugin.id !== "bundler");
    expect(() => composePlugins(withoutBundler)).toThrow(
      'Plugin "smart-wallets" requires the capability "userOperationPool", which no loaded plugin provides',
    );
  });

  it("give each plugin the capabilities it declares, and custody, the secrets and the funder key to none other", () => {
    const composed = composePlugins(plugins);
    const logger = { child: () => logger } as unknown as Logger;
    const host = {
      logger,
      db: { platform: {} },
      config: { pluginSettings: new Map(plugins.map((plugin) => [plugin.id, {}])) },
      executors: new Map(),
      custody: {},
      secrets: {},
      deployment: {},
    };
    const ctx = host as unknown as HostContext;
    composed.provideServices(ctx);
    const capabilities = [
      "custody",
      "secrets",
      "deployment",
      "userOperationPool",
      "complianceTemplates",
      "webhookDeliveryStats",
      "kycDocuments",
    ];
    const contextOf = (id: string) =>
      pluginContext(ctx, plugins.find((p) => p.id === id)!) as unknown as Record<string, unknown>;
    const received = (id: string) => Object.keys(contextOf(id)).filter((key) => capabilities.includes(key));
    expect(received("smart-wallets").sort()).toEqual(["custody", "deployment", "userOperationPool"]);
    expect(received("tokens")).toEqual(["complianceTemplates"]);
    expect(received("monitoring")).toEqual(["webhookDeliveryStats"]);
    expect(received("webhooks")).toEqual(["secrets"]);
    expect(received("kyc-documents")).toEqual(["secrets"]);
    expect(received("identities").sort()).toEqual(["custody", "kycDocuments"]);
    expect(received("exchange-rates")).toEqual([]);
    expect(contextOf("systems").custody).toBe(host.custody);
  });
});
