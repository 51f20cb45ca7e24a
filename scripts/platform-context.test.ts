// The platform composes its plugins when the start path loads (scripts/start.ts → platform.ts → platform-context.ts):
// plugins declaring a colliding name stop it there, before any database or chain is started.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ErrorDefinition } from "../host/errors/registry.ts";
import { definePlugin } from "../host/plugin.ts";

const jammed: ErrorDefinition = {
  id: "SVC-90001",
  status: 409,
  category: "domain",
  retryable: false,
  message: "Jammed.",
  why: "The widget jammed.",
  fix: "Unjam it.",
};

afterEach(() => {
  vi.doUnmock("../plugins/index.ts");
  vi.resetModules();
});

describe("starting with colliding plugins", () => {
  it("refuses to start, naming both plugins", async () => {
    vi.resetModules();
    vi.doMock("../plugins/index.ts", () => ({
      plugins: [
        definePlugin({ id: "widgets", errors: { WIDGET_JAMMED: jammed } }),
        definePlugin({ id: "gadgets", errors: { WIDGET_JAMMED: jammed } }),
      ],
    }));
    await expect(import("./platform.ts")).rejects.toThrow(
      'Plugins "widgets" and "gadgets" both declare the error code "WIDGET_JAMMED"; rename one of them.',
    );
  });

  it("refuses a plugin permission that the host core declares", async () => {
    vi.resetModules();
    vi.doMock("../plugins/index.ts", () => ({
      plugins: [definePlugin({ id: "widgets", permissions: { "participant:act-for-others": ["member"] } })],
    }));
    await expect(import("./platform.ts")).rejects.toThrow(
      'Plugin "widgets" declares the permission "participant:act-for-others", which the host core already declares',
    );
  });
});
