// The list's query: the jurisdiction filter's SQL (GLOBAL, globals included), its operators, and the declared sort.
import { describe, expect, it } from "vitest";
import { parseCollectionQuery } from "../../host/collections/index.ts";
import { compilingOnly } from "../../host/db/compiling-only.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { COMPLIANCE_TEMPLATE_COLLECTION, jurisdictionCondition } from "./collections.ts";

const compiler = compilingOnly();

/** The SQL and parameters of the condition that `filter[jurisdiction]...` parses to. */
function compiled(query: string) {
  const [filter] = parseCollectionQuery(new URLSearchParams(query), COMPLIANCE_TEMPLATE_COLLECTION).filters;
  const { sql, parameters } = jurisdictionCondition(filter).compile(compiler);
  return { sql, parameters };
}

const GLOBAL_ONLY = { sql: 'cardinality("jurisdictions") = 0', parameters: [] };

describe("the compliance template collection", () => {
  it("selects a jurisdiction's templates and the global ones; GLOBAL (or isEmpty) the global ones only", () => {
    const either = '("jurisdictions" && cast($1 as text[]) or cardinality("jurisdictions") = 0)';
    expect(compiled("filter[jurisdiction]=de")).toEqual({ sql: either, parameters: [["DE"]] });
    expect(compiled("filter[jurisdiction][inArray]=DE,global,fr")).toEqual({ sql: either, parameters: [["DE", "FR"]] });
    expect(compiled("filter[jurisdiction]=GLOBAL")).toEqual(GLOBAL_ONLY);
    expect(compiled("filter[jurisdiction][eq]=global")).toEqual(GLOBAL_ONLY);
    expect(compiled("filter[jurisdiction][isEmpty]")).toEqual(GLOBAL_ONLY);
    expect(compiled("filter[jurisdiction][isNotEmpty]").sql).toBe('not cardinality("jurisdictions") = 0');
  });

  it("declares the spec's filters, sorts and facets, name by default, library first", () => {
    const spec = COMPLIANCE_TEMPLATE_COLLECTION;
    expect(spec.filterableFields).toEqual([
      "name",
      "jurisdiction",
      "isDraft",
      "moduleSetVersion",
      "isSystem",
      "createdAt",
      "updatedAt",
    ]);
    expect(spec.facetFields).toEqual(["isDraft", "moduleSetVersion", "isSystem"]);
    expect(spec.search.map((f) => f.name)).toEqual(["name", "description"]);
    expect(spec.defaultSort).toEqual({ field: "name", direction: "asc" });
    expect(spec.leadingOrder).toEqual({ column: "isSystem", direction: "desc" });
    expect(() => parseCollectionQuery(new URLSearchParams("filter[jurisdiction][iLike]=D"), spec)).toThrow(ApiError);
    expect(() => parseCollectionQuery(new URLSearchParams("filter[description]=x"), spec)).toThrow(ApiError);
  });
});
