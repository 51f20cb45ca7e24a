// The typing of codes and definitions: `npx tsc --noEmit` fails if a `@ts-expect-error` below stops being an error,
// i.e. if ErrorCode widened back to string or a definition could again drop or misname a field.
import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error.ts";
import type { ErrorCode, ErrorDefinition } from "./registry.ts";

describe("error codes are typed", () => {
  it("accepts the core's and the plugins' declared codes", () => {
    const core: ErrorCode = "BAD_REQUEST";
    // Declared in plugins/example-notes/errors.ts, which adds its codes to ErrorCodes: the host imports no plugin.
    const plugin: ErrorCode = "EXAMPLE_NOTE_NOT_FOUND";
    expect([core, plugin]).toEqual(["BAD_REQUEST", "EXAMPLE_NOTE_NOT_FOUND"]);
    expect(new ApiError(core).status).toBe(400);
  });

  it("refuses a misspelt code at compile time (and at run time, naming it)", () => {
    // @ts-expect-error: "BAD_REQUST" is no declared code
    expect(() => new ApiError("BAD_REQUST")).toThrow('Unknown error code "BAD_REQUST"');
  });

  it("refuses a definition missing a field or with a misnamed one", () => {
    const definitions = {
      // @ts-expect-error: fix is missing
      NO_FIX: { id: "SVC-99990", status: 409, category: "domain", retryable: false, message: "M.", why: "W." },
      MISNAMED: {
        id: "SVC-99991",
        status: 409,
        category: "domain",
        retryable: false,
        message: "M.",
        // @ts-expect-error: "reason" is no field of a definition (why is)
        reason: "W.",
        fix: "F.",
      },
      SHIFTED: {
        id: "SVC-99992",
        status: 409,
        category: "domain",
        // @ts-expect-error: retryable is a boolean, not the category
        retryable: "domain",
        message: "M.",
        why: "W.",
        fix: "F.",
      },
    } as const satisfies Record<string, ErrorDefinition>;
    expect(Object.keys(definitions)).toHaveLength(3);
  });
});
