import { parseCrontab } from "graphile-worker";
import { describe, expect, it } from "vitest";
import { ApiError } from "./errors/api-error.ts";
import type { ErrorDefinition } from "./errors/registry.ts";
import type { Logger } from "./logger.ts";
import { definePlugin, type HostContext, type PluginContext } from "./plugin.ts";
import { composePlugins, PluginConflictError, PluginRequirementError, pluginContext } from "./plugin-host.ts";

const error = (id: string): ErrorDefinition => ({
  id,
  status: 409,
  category: "domain",
  retryable: false,
  message: "Refused.",
  why: "Why it is refused.",
  fix: "What to do.",
});

describe("composePlugins refuses colliding declarations", () => {
  it("names both plugins when two declare the same error code", () => {
    const first = definePlugin({ id: "first", errors: { WIDGET_JAMMED: error("SVC-90001") } });
    const second = definePlugin({ id: "second", errors: { WIDGET_JAMMED: error("SVC-90002") } });
    expect(() => composePlugins([first, second])).toThrow(PluginConflictError);
    expect(() => composePlugins([first, second])).toThrow(
      'Plugins "first" and "second" both declare the error code "WIDGET_JAMMED"; rename one of them.',
    );
  });

  it("names both plugins when two declare the same permission", () => {
    const first = definePlugin({ id: "first", permissions: { "widget:turn": ["owner"] } });
    const second = definePlugin({ id: "second", permissions: { "widget:turn": ["admin"] } });
    expect(() => composePlugins([first, second])).toThrow(
      'Plugins "first" and "second" both declare the permission "widget:turn"; rename one of them.',
    );
  });

  it("names both plugins when two codes share an SVC id", () => {
    const first = definePlugin({ id: "first", errors: { WIDGET_JAMMED: error("SVC-90001") } });
    const second = definePlugin({ id: "second", errors: { WIDGET_MISSING: error("SVC-90001") } });
    expect(() => composePlugins([first, second])).toThrow(
      'Plugins "first" and "second" both declare the error id "SVC-90001"; rename one of them.',
    );
  });

  it("names the plugin and the host core when a plugin takes a core code, id, permission or revert", () => {
    const cases: [ReturnType<typeof definePlugin>, string][] = [
      [definePlugin({ id: "greedy", errors: { BAD_REQUEST: error("SVC-90001") } }), 'error code "BAD_REQUEST"'],
      [definePlugin({ id: "greedy", errors: { WIDGET_JAMMED: error("SVC-0001") } }), 'error id "SVC-0001"'],
      [definePlugin({ id: "greedy", permissions: { "participant:act-for-others": ["owner"] } }), "permission"],
      [
        definePlugin({
          id: "greedy",
          revertErrors: { AccessControlUnauthorizedAccount: { code: "CONTRACT_ERROR", message: () => "no" } },
        }),
        'contract revert "AccessControlUnauthorizedAccount"',
      ],
    ];
    for (const [plugin, what] of cases) {
      expect(() => composePlugins([plugin])).toThrow(PluginConflictError);
      expect(() => composePlugins([plugin])).toThrow(`Plugin "greedy" declares the ${what}`);
      expect(() => composePlugins([plugin])).toThrow("which the host core already declares");
    }
  });

  it("refuses a revert rule whose code no one declares", () => {
    const plugin = definePlugin({
      id: "widgets",
      // @ts-expect-error: no module declares WIDGET_JAMMED, which is what this case is about
      revertErrors: { WidgetJammed: { code: "WIDGET_JAMMED", message: () => "jammed" } },
    });
    expect(() => composePlugins([plugin])).toThrow('Plugin "widgets" maps the revert WidgetJammed to "WIDGET_JAMMED"');
  });

  it("composes distinct declarations, and an unregistered code is a programming error naming it", () => {
    const composed = composePlugins([
      definePlugin({ id: "first", errors: { WIDGET_JAMMED: error("SVC-90001") }, permissions: { "widget:turn": [] } }),
      definePlugin({ id: "second", errors: { WIDGET_MISSING: error("SVC-90002") } }),
    ]);
    expect([...composed.errors.keys()]).toEqual(["WIDGET_JAMMED", "WIDGET_MISSING"]);
    expect([...composed.permissions.keys()]).toEqual(["widget:turn"]);
    // Composing registers nothing: only registerPlugins (at start) makes the codes known.
    // @ts-expect-error: the test plugins' codes are declared to no module, so ErrorCode does not hold them either
    expect(() => new ApiError("WIDGET_JAMMED")).toThrow(
      'Unknown error code "WIDGET_JAMMED": neither the host core nor a registered plugin declares it',
    );
  });
});

describe("composePlugins composes requirements and provided capabilities", () => {
  const stats = { byOutcome: async () => [{ outcome: "succeeded", count: 1 }] };
  const provider = definePlugin({ id: "provider", provides: { webhookDeliveryStats: () => stats } });
  const consumer = definePlugin({ id: "consumer", requires: ["webhookDeliveryStats"] });

  it("refuses a requirement no loaded plugin provides, naming the plugin and the capability", () => {
    expect(() => composePlugins([consumer])).toThrow(PluginRequirementError);
    expect(() => composePlugins([consumer])).toThrow(
      'Plugin "consumer" requires the capability "webhookDeliveryStats", which no loaded plugin provides',
    );
  });

  it("builds providers before the plugins that require them, and keeps the given order otherwise", () => {
    const composed = composePlugins([consumer, provider]);
    expect(composed.plugins.map((p) => p.id)).toEqual(["consumer", "provider"]);
    expect(composed.dependencyOrder.map((p) => p.id)).toEqual(["provider", "consumer"]);
  });

  it("refuses two providers of one capability, and a plugin providing the host's own", () => {
    const twin = definePlugin({ id: "twin", provides: { webhookDeliveryStats: () => stats } });
    expect(() => composePlugins([provider, twin])).toThrow(
      'Plugins "provider" and "twin" both declare the capability "webhookDeliveryStats"',
    );
    const impostor = definePlugin({ id: "impostor", provides: { custody: () => ({}) } } as never);
    expect(() => composePlugins([impostor])).toThrow('Plugin "impostor" declares the capability "custody"');
  });

  it("refuses plugins that require each other in a cycle", () => {
    const a = definePlugin({
      id: "a",
      requires: ["complianceTemplates"],
      provides: { userOperationPool: () => ({}) as never },
    });
    const b = definePlugin({
      id: "b",
      requires: ["userOperationPool"],
      provides: { complianceTemplates: () => ({}) as never },
    });
    expect(() => composePlugins([a, b])).toThrow("in a cycle: a → b → a");
  });

  it("gives a plugin the capabilities it requires: no custody, secrets or host keys unless it requires them", () => {
    const seen: Record<string, PluginContext<"custody" | "secrets" | "webhookDeliveryStats">> = {};
    const observe = (id: string) => (ctx: PluginContext) => {
      seen[id] = ctx as (typeof seen)[string];
      return [];
    };
    const composed = composePlugins([
      definePlugin({ id: "reader", requires: ["webhookDeliveryStats"], timers: observe("reader") }),
      definePlugin({ id: "signer", requires: ["custody"], timers: observe("signer") }),
      definePlugin({ id: "plain", timers: observe("plain") }),
      provider,
    ]);
    const logger = { child: () => logger } as unknown as Logger;
    const pluginSettings = new Map([["signer", { SIGNER_LIMIT: 3 }]]);
    const config = { CUSTODY_MASTER_KEY: "0x01", DEPLOYER_PRIVATE_KEY: "0x02", LOG_LEVEL: "info", pluginSettings };
    const host = { logger, config, custody: { kind: "custody" }, secrets: { masterKey: Buffer.alloc(32) } };
    const withServices = { ...host, executors: new Map() } as unknown as HostContext;
    composed.provideServices(withServices);
    composed.timers(withServices);
    expect(seen.reader.webhookDeliveryStats).toBe(stats);
    expect(Object.keys(seen.reader)).not.toContain("custody");
    expect(seen.signer.custody).toBe(host.custody);
    expect(Object.keys(seen.signer)).not.toContain("secrets");
    expect(Object.keys(seen.plain).sort()).toEqual(["config", "executors", "logger", "settings"]);
    expect(seen.signer.settings).toEqual({ SIGNER_LIMIT: 3 });
    // The host's keys and other plugins' settings are not settings a plugin reads.
    expect(seen.plain.config).toEqual({ LOG_LEVEL: "info" });
    expect(pluginContext(withServices, composed.plugins[0])).not.toHaveProperty("secrets");
  });
});

describe("composePlugins writes each plugin's cron entries as graphile-worker crontab lines", () => {
  it("with the entry's job key, and its backfill period when it declares one", () => {
    const plugin = definePlugin({
      id: "clock",
      crontab: [
        { task: "tick", schedule: "* * * * *" },
        { task: "tally", schedule: "5 * * * *", fill: "1h", payload: { full: true } },
      ],
    });
    const [tick, tally] = parseCrontab(composePlugins([plugin]).crontab.join("\n"));
    expect(tick).toMatchObject({ task: "clock:tick", identifier: "clock:tick" });
    expect(tick?.options).toMatchObject({
      jobKey: "cron:clock:tick",
      jobKeyMode: "preserve_run_at",
      backfillPeriod: 0,
    });
    expect(tally).toMatchObject({ task: "clock:tally", payload: { full: true } });
    expect(tally?.options).toMatchObject({ jobKey: "cron:clock:tally", backfillPeriod: 3_600_000 });
  });
});
