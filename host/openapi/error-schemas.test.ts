// The documented error envelopes describe what the renderer actually answers.
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors/api-error.ts";
import { renderError } from "../errors/render.ts";
import { ErrorFormASchema } from "../http/schemas.ts";
import { ErrorFormBSchema } from "./error-schemas.ts";

describe("the documented error envelopes", () => {
  const error = new ApiError("BAD_REQUEST", { details: { issues: [{ path: "limit", message: "too big" }] } });

  it("Form B matches the legacy routes' rendered errors", () => {
    const rendered = renderError(error, "B", "req-12345678");
    expect(ErrorFormBSchema.parse(rendered)).toEqual(rendered);
  });

  it("Form A matches the v2 routes' rendered errors", () => {
    const rendered = renderError(error, "A", "req-12345678");
    expect(ErrorFormASchema.parse(rendered)).toEqual(rendered);
  });
});
