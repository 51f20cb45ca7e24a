import { describe, expect, it } from "vitest";
import { parseCollectionQuery } from "../../host/collections/index.ts";
import { toApiKey } from "./api-key-record.ts";
import { API_KEY_COLLECTION, MEMBER_COLLECTION } from "./collections.ts";
import { ApiKeySchema } from "./schemas.ts";

describe("an API key's record", () => {
  it("shows the listed fields as JSON, never the secret's digest", () => {
    const row = {
      id: "k1",
      organizationId: "o1",
      userId: "u1",
      name: "ci",
      keyPrefix: "svc_Ab12Cd",
      scope: "read" as const,
      createdAt: new Date("2026-01-01T00:00:00Z"),
      expiresAt: null,
      lastUsedAt: new Date("2026-01-02T00:00:00Z"),
      revokedAt: null,
      keyHash: "must not leak",
    };
    const record = toApiKey(row);
    expect(record).toEqual({
      id: "k1",
      name: "ci",
      prefix: "svc_Ab12Cd",
      scope: "read",
      organizationId: "o1",
      userId: "u1",
      createdAt: "2026-01-01T00:00:00.000Z",
      expiresAt: null,
      lastUsedAt: "2026-01-02T00:00:00.000Z",
      revokedAt: null,
    });
    expect(ApiKeySchema.strict().safeParse(record).success).toBe(true);
  });
});

describe("the access collections", () => {
  const parse = (query: string, spec = API_KEY_COLLECTION) => parseCollectionQuery(new URLSearchParams(query), spec);

  it("list keys newest first and filter active ones", () => {
    expect(parse("").sort).toEqual({ field: "createdAt", direction: "desc" });
    expect(parse("filter[revokedAt][isEmpty]=").filters).toEqual([{ field: "revokedAt", operator: "isEmpty" }]);
    expect(() => parse("filter[keyHash]=x")).toThrow();
  });

  it("filter members by role, refusing roles the table does not know", () => {
    expect(parse("filter[roles]=owner", MEMBER_COLLECTION).filters).toEqual([
      { field: "roles", operator: "eq", value: "owner" },
    ]);
    expect(() => parse("filter[roles]=sultan", MEMBER_COLLECTION)).toThrow();
  });
});
