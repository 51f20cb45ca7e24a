// The v2 OpenAPI document as the contract a generator trusts, built offline as `npm run build:sdk` builds it: Redocly's
// recommended rules find no error; every write declares the shared headers it takes, by reference to one component;
// every chain write documents 422; every operation is described; token creation's configurations are typed per id.
import { beforeAll, describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../host/openapi/api-documents.ts";
import { isChainWrite, operationsOf } from "../host/openapi/document-operations.ts";
import { buildV2Document } from "./api-document.ts";
import { redoclyLint } from "./redocly-lint.ts";

let document: OpenApiDocument;
beforeAll(async () => {
  document = await buildV2Document();
}, 60_000);

const operations = () => [...operationsOf(document.paths ?? {})];
const refs = (operation: { parameters?: unknown[] }) =>
  (operation.parameters ?? []).map((p) => (p as { $ref?: string }).$ref).filter(Boolean);
const where = (path: string, method: string) => `${method.toUpperCase()} ${path}`;

const SHARED = ["IdempotencyKey", "Prefer", "XTransactionSpeed", "XChainId", "XParticipant", "XExecutor"];
/** A write answering 202 without a transaction request (e.g. a webhook replay) takes a key, not Prefer: it queues. */
const QUEUED = ["IdempotencyKey", "XChainId", "XParticipant", "XExecutor"];

describe("the v2 OpenAPI document", () => {
  it("passes Redocly's recommended rules without an error", async () => {
    const errors = (await redoclyLint(document)).filter((p) => p.severity === "error");
    expect(errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  }, 60_000);

  it("defines each shared header once, as a component", () => {
    expect(Object.keys(document.components?.parameters ?? {})).toEqual(SHARED);
    const inline = operations().flatMap(({ path, method, operation }) =>
      (operation.parameters ?? [])
        .filter((p) => SHARED.some((name) => (p as { name?: string }).name?.toLowerCase() === name.toLowerCase()))
        .map(() => where(path, method)),
    );
    expect(inline).toEqual([]);
  });

  it("declares the shared headers and documents 422 on every operation answering 202", () => {
    const accepted = operations().filter(({ operation }) => operation.responses?.["202"]);
    expect(accepted.length).toBeGreaterThan(40);
    const gaps = accepted.flatMap(({ path, method, operation }) => {
      const wanted = isChainWrite(operation) ? SHARED : QUEUED;
      const missing = wanted.filter((name) => !refs(operation).includes(`#/components/parameters/${name}`));
      const has422 =
        (operation.responses?.["422"] as { $ref?: string })?.$ref === "#/components/responses/UnprocessableEntity";
      return [
        ...missing.map((name) => `${where(path, method)}: ${name}`),
        ...(has422 ? [] : [`${where(path, method)}: 422`]),
      ];
    });
    expect(gaps).toEqual([]);
  });

  it("documents the Form A error statuses of every v2 operation by reference", () => {
    const gaps = operations()
      .filter(({ path }) => path.startsWith("/api/v2/"))
      .flatMap(({ path, method, operation }) =>
        ["400", "401", "403", "404", "409", "429", "500", "503"]
          .filter((status) => !operation.responses?.[status])
          .map((status) => `${where(path, method)}: ${status}`),
      );
    expect(gaps).toEqual([]);
    expect(document.components?.responses?.UnprocessableEntity).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    });
  });

  it("describes every operation", () => {
    const undescribed = operations()
      .filter(({ operation }) => !operation.description?.trim())
      .map(({ path, method }) => where(path, method));
    expect(undescribed).toEqual([]);
  });

  it("types token creation's featureConfigs and complianceConfigs per feature and control id", () => {
    const schemas = document.components?.schemas ?? {};
    const body = schemas.CreateTokenRequest as { properties: Record<string, { properties?: Record<string, unknown> }> };
    expect(body.properties.featureConfigs.properties?.["maturity-redemption"]).toEqual({
      $ref: "#/components/schemas/MaturityRedemptionFeatureConfig",
    });
    expect(body.properties.complianceConfigs.properties?.["capped-v2"]).toEqual({
      $ref: "#/components/schemas/CappedV2ComplianceConfig",
    });
    const bond = schemas.MaturityRedemptionFeatureConfig as { properties: Record<string, Record<string, unknown>> };
    expect(bond.properties.maturityDate.anyOf).toContainEqual({ type: "string", format: "date" });
    const yieldConfig = schemas.FixedTreasuryYieldFeatureConfig as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(yieldConfig.properties.rate).toMatchObject({ type: "integer", maximum: 10_000 });
    expect(String(yieldConfig.properties.rate.description)).toContain("basis points");
  });
});
