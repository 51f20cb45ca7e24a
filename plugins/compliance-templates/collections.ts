// How compliance templates are listed: library first, then by name; filters, search and facets of the list route.
import { type RawBuilder, type SqlBool, sql } from "kysely";
import { defineCollection, type FilterCondition } from "../../host/collections/index.ts";
import { GLOBAL } from "./schemas.ts";

const uppercase = (value: string) => value.toUpperCase();
const isGlobal = sql<SqlBool>`cardinality(${sql.ref("jurisdictions")}) = 0`;

/**
 * `filter[jurisdiction]=DE` (or `[inArray]=DE,FR`) selects templates for any of those jurisdictions and the global
 * ones (no jurisdictions), which hold everywhere; `GLOBAL` selects only the global ones (as `[isEmpty]` does).
 */
export function jurisdictionCondition(filter: FilterCondition): RawBuilder<SqlBool> {
  switch (filter.operator) {
    case "isEmpty":
      return isGlobal;
    case "isNotEmpty":
      return sql<SqlBool>`not ${isGlobal}`;
    case "eq":
      return forJurisdictions([String(filter.value)]);
    case "inArray":
      return forJurisdictions(filter.values.map(String));
    default:
      throw new Error(`jurisdiction does not declare ${filter.operator}`);
  }
}

function forJurisdictions(codes: string[]): RawBuilder<SqlBool> {
  const named = codes.filter((code) => code !== GLOBAL);
  if (named.length === 0) return isGlobal;
  return sql<SqlBool>`(${sql.ref("jurisdictions")} && cast(${named} as text[]) or ${isGlobal})`;
}

export const COMPLIANCE_TEMPLATE_COLLECTION = defineCollection({
  fields: {
    name: { column: "name", type: "text", sortable: true },
    description: { column: "description", type: "text", filter: false },
    jurisdiction: {
      column: "jurisdictions",
      type: "text",
      normalize: uppercase,
      sortable: true,
      filter: { operators: ["eq", "inArray", "isEmpty", "isNotEmpty"] },
      condition: jurisdictionCondition,
    },
    isDraft: { column: "isDraft", type: "boolean", sortable: true, facet: true },
    moduleSetVersion: { column: "moduleSetVersion", type: "number", sortable: true, facet: true },
    isSystem: { column: "isSystem", type: "boolean", sortable: true, facet: true },
    createdAt: { column: "createdAt", type: "timestamp", sortable: true },
    updatedAt: { column: "updatedAt", type: "timestamp", sortable: true },
  },
  search: ["name", "description"],
  defaultSort: "name",
  tiebreaker: "id",
  leadingOrder: { column: "isSystem", direction: "desc" },
});
