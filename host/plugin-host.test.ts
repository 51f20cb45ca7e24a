import { describe, expect, it } from "vitest";
import { ApiError } from "./errors/api-error.ts";
import type { ErrorDefinition } from "./errors/registry.ts";
import { definePlugin } from "./plugin.ts";
import { composePlugins, PluginConflictError } from "./plugin-host.ts";

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
