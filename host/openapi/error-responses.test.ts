// Error responses by reference to one component per status; the statuses an operation's kind can answer are added.
import { describe, expect, it } from "vitest";
import { ERROR_ENVELOPE_DESCRIPTION } from "../http/schemas.ts";
import type { DocumentOperation } from "./document-operations.ts";
import { errorResponseComponents, withSharedErrorResponses } from "./error-responses.ts";

const generic = { description: ERROR_ENVELOPE_DESCRIPTION, content: {} };
const own = { description: "404 WIDGET_NOT_FOUND when the widget is gone", content: {} };
const accepted = { content: { "application/json": { schema: { $ref: "#/components/schemas/AcceptedMutation" } } } };
const operation = (responses: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ responses, ...extra }) as unknown as DocumentOperation;

describe("withSharedErrorResponses", () => {
  it("refers generic responses to the shared one and keeps a route's own words", () => {
    const read = operation({ 200: { description: "ok" }, 400: generic, 404: own });
    withSharedErrorResponses("get", read);
    expect(read.responses?.["400"]).toEqual({ $ref: "#/components/responses/BadRequest" });
    expect(read.responses?.["404"]).toBe(own);
    expect(read.responses?.["503"]).toEqual({ $ref: "#/components/responses/ServiceUnavailable" });
    expect(read.responses?.["422"]).toBeUndefined();
  });

  it("adds 422 to authenticated writes, 408 and 504 to chain writes, 413 and 415 with a body, in status order", () => {
    const write = operation({ 200: { description: "ok" } });
    withSharedErrorResponses("put", write);
    expect(write.responses?.["422"]).toEqual({ $ref: "#/components/responses/UnprocessableEntity" });
    expect(write.responses?.["504"]).toBeUndefined();
    const chainWrite = operation({ 202: accepted }, { requestBody: { content: {} } });
    withSharedErrorResponses("post", chainWrite);
    expect(Object.keys(chainWrite.responses ?? {})).toEqual([
      "202",
      "400",
      "401",
      "403",
      "404",
      "408",
      "409",
      "413",
      "415",
      "422",
      "429",
      "500",
      "503",
      "504",
    ]);
    const publicWrite = operation({ 200: { description: "ok" } }, { security: [] });
    withSharedErrorResponses("post", publicWrite);
    expect(publicWrite.responses?.["422"]).toBeUndefined();
  });

  it("defines every shared response in the Form A envelope", () => {
    for (const response of Object.values(errorResponseComponents())) {
      expect(response).toMatchObject({
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      });
    }
  });
});
