// Which operations take which shared headers, always by reference to the one component.
import { describe, expect, it } from "vitest";
import type { DocumentOperation } from "./document-operations.ts";
import { SHARED_HEADERS, withSharedHeaders } from "./shared-headers.ts";

const ref = (name: string) => ({ $ref: `#/components/parameters/${name}` });
const pathParameter = { name: "tokenAddress", in: "path", required: true, schema: { type: "string" } };
const chainWrite = () =>
  ({
    parameters: [pathParameter],
    responses: {
      202: { content: { "application/json": { schema: { $ref: "#/components/schemas/AcceptedMutation" } } } },
    },
  }) as unknown as DocumentOperation;
const plain = (extra: Record<string, unknown> = {}) =>
  ({ responses: { 200: { description: "ok" } }, ...extra }) as unknown as DocumentOperation;

describe("withSharedHeaders", () => {
  it("gives a chain write all six, after its own parameters", () => {
    const operation = chainWrite();
    withSharedHeaders("post", operation);
    expect(operation.parameters).toEqual([
      pathParameter,
      ref("IdempotencyKey"),
      ref("Prefer"),
      ref("XTransactionSpeed"),
      ref("XChainId"),
      ref("XParticipant"),
      ref("XExecutor"),
    ]);
  });

  it("gives another authenticated write the context headers, a public write or a read none", () => {
    const write = plain();
    withSharedHeaders("delete", write);
    expect(write.parameters).toEqual([ref("XChainId"), ref("XParticipant"), ref("XExecutor")]);
    const publicWrite = plain({ security: [] });
    withSharedHeaders("post", publicWrite);
    expect(publicWrite.parameters).toBeUndefined();
    const read = plain();
    withSharedHeaders("get", read);
    expect(read.parameters).toBeUndefined();
  });

  it("replaces a route's own declaration of a shared header (any case) by the reference", () => {
    const operation = plain({
      security: [],
      parameters: [{ name: "idempotency-key", in: "header", required: false, schema: { type: "string" } }],
    });
    withSharedHeaders("post", operation);
    expect(operation.parameters).toEqual([ref("IdempotencyKey")]);
  });

  it("describes Prefer's range and X-Executor's values as the host accepts them", () => {
    expect(SHARED_HEADERS.Prefer.description).toContain("5 to 99");
    expect(SHARED_HEADERS.XExecutor.schema.enum).toEqual(["eoa", "smart-wallet"]);
    expect(SHARED_HEADERS.IdempotencyKey.description).toContain("24 hours");
    expect(SHARED_HEADERS.XTransactionSpeed.schema.enum).toEqual(["slow", "standard", "fast"]);
    expect(SHARED_HEADERS.XTransactionSpeed.schema.default).toBe("standard");
  });
});
