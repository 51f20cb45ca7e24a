// What a list route declares about its collection: fields (column, type, operators, sort, facet), search, default sort.
import type { Expression, SqlBool } from "kysely";
import type { FilterCondition } from "./parse.ts";

export const OPERATORS = [
  "eq",
  "ne",
  "gt",
  "gte",
  "lt",
  "lte",
  "iLike",
  "notILike",
  "inArray",
  "notInArray",
  "between",
  "isEmpty",
  "isNotEmpty",
] as const;
export type Operator = (typeof OPERATORS)[number];

export type FieldType = "text" | "number" | "bigint" | "boolean" | "timestamp" | "enum";

/** Query keys of other APIs that the spec refuses with a hint naming the parameter to send instead. */
export const FLAT_KEYS = ["sortBy", "sortDirection", "limit", "offset", "filters"] as const;
export type FlatKey = (typeof FLAT_KEYS)[number];

const ORDERED: Operator[] = ["eq", "ne", "gt", "gte", "lt", "lte", "between", "inArray", "notInArray"];
const EMPTINESS: Operator[] = ["isEmpty", "isNotEmpty"];
const MEMBERSHIP: Operator[] = ["inArray", "notInArray"];
const PATTERN: Operator[] = ["iLike", "notILike"];

/** The operators a route may enable for a field of each type. */
const ALLOWED_OPERATORS: Record<FieldType, readonly Operator[]> = {
  text: OPERATORS,
  number: [...ORDERED, ...EMPTINESS],
  bigint: [...ORDERED, ...EMPTINESS],
  timestamp: [...ORDERED, ...EMPTINESS],
  boolean: ["eq", "ne", ...EMPTINESS],
  enum: ["eq", "ne", ...MEMBERSHIP, ...PATTERN, ...EMPTINESS],
};

/** The operators a field supports when the route does not list them. */
const DEFAULT_OPERATORS: Record<FieldType, readonly Operator[]> = {
  text: ["eq", "ne", ...PATTERN, ...MEMBERSHIP, ...EMPTINESS],
  number: ALLOWED_OPERATORS.number,
  bigint: ALLOWED_OPERATORS.bigint,
  timestamp: ALLOWED_OPERATORS.timestamp,
  boolean: ALLOWED_OPERATORS.boolean,
  enum: ["eq", "ne", ...MEMBERSHIP],
};

interface FieldOptions {
  /** The column the field reads, declared by the route (e.g. `createdAt`, `t.created_at`); never from the query. */
  column: string;
  /** Allowed in `sort`. */
  sortable?: boolean;
  /** Counted per value in `meta.facets`. */
  facet?: boolean;
  /** The column is an array: the facet counts rows per element (a row counts once for each value it holds). */
  facetElements?: boolean;
  /** `false`: not filterable. Otherwise the operators (default: the type's set) and the shorthand's operator (eq). */
  filter?: false | { operators?: readonly Operator[]; defaultOperator?: Operator };
  /**
   * The field's own SQL for a parsed filter, in place of the engine's (e.g. an array column, or a value with a
   * route-specific meaning); values arrive parsed and normalised as for any field of its type. Bind them (`sql`).
   */
  condition?: FieldCondition;
}

export type FieldCondition = (filter: FilterCondition) => Expression<SqlBool>;

/**
 * text: strings (`normalize` e.g. lowercases addresses); number: integers; bigint: a numeric column, values as
 * decimal strings; boolean: true/false; timestamp: ISO 8601 (timestamptz column); enum: one of `values`.
 */
export type FieldDefinition =
  | (FieldOptions & { type: "text"; normalize?: (value: string) => string })
  | (FieldOptions & { type: "number" | "bigint" | "boolean" | "timestamp" })
  | (FieldOptions & { type: "enum"; values: readonly string[] });

export interface CollectionDefinition<F extends string> {
  fields: Record<F, FieldDefinition>;
  /** Fields (text or enum) that `filter[q]` searches, case-insensitively, any of them matching. */
  search?: readonly NoInfer<F>[];
  /** The sort when the request sends none: a sortable field, prefixed with `-` for descending. */
  defaultSort: NoInfer<F> | `-${NoInfer<F>}`;
  /** A unique column ordered after the sort field so that pages are stable (e.g. `id`). */
  tiebreaker: string;
  /** Flat keys the route reads itself, so the engine does not refuse them (e.g. sortBy on a legacy-compatible route). */
  allowFlatKeys?: readonly FlatKey[];
  /** A column ordered by before the requested sort (e.g. library rows first), unless the sort is on that column. */
  leadingOrder?: { column: string; direction: SortDirection };
  /** A facet field whose column is never null: the total is the sum of its buckets, one query fewer. */
  totalFromFacet?: NoInfer<F>;
  /**
   * The versioned tables (host/db/table-versions.ts) the route's select and every field's condition read, and
   * nothing else: the total and facets are then kept per their version, and a request while they are unchanged
   * costs the page query alone.
   */
  versionedBy?: readonly string[];
}

export interface CollectionField {
  name: string;
  column: string;
  type: FieldType;
  /** Empty when the field is not filterable. */
  operators: readonly Operator[];
  defaultOperator: Operator;
  sortable: boolean;
  facet: boolean;
  /** The facet counts the elements of an array column. */
  facetElements: boolean;
  /** Allowed values of an enum field. */
  values?: readonly string[];
  normalize?: (value: string) => string;
  condition?: FieldCondition;
}

export type SortDirection = "asc" | "desc";

export interface CollectionSpec {
  fields: ReadonlyMap<string, CollectionField>;
  filterableFields: string[];
  sortableFields: string[];
  facetFields: string[];
  search: CollectionField[];
  defaultSort: { field: string; direction: SortDirection };
  tiebreaker: string;
  allowFlatKeys: ReadonlySet<string>;
  leadingOrder?: { column: string; direction: SortDirection };
  totalFromFacet?: string;
  versionedBy?: readonly string[];
}

/** The reserved filter key of the global search. */
export const SEARCH_KEY = "q";

/** Checks a route's declaration once, at startup: a mistake here is the route's bug, not the caller's. */
export function defineCollection<const F extends string>(definition: CollectionDefinition<F>): CollectionSpec {
  const fields = new Map<string, CollectionField>();
  for (const [name, field] of Object.entries(definition.fields) as [string, FieldDefinition][]) {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) throw new Error(`Collection field "${name}" must be an identifier`);
    if (name === SEARCH_KEY && definition.search?.length) throw new Error(`"${SEARCH_KEY}" is the search key`);
    const filter = field.filter === false ? undefined : (field.filter ?? {});
    const operators = filter ? [...(filter.operators ?? DEFAULT_OPERATORS[field.type])] : [];
    const defaultOperator = filter?.defaultOperator ?? "eq";
    for (const operator of operators) {
      if (!ALLOWED_OPERATORS[field.type].includes(operator)) {
        throw new Error(`Operator ${operator} does not apply to the ${field.type} field "${name}"`);
      }
    }
    if (filter && !operators.includes(defaultOperator)) {
      throw new Error(`Default operator ${defaultOperator} of "${name}" is not one of its operators`);
    }
    if (field.facetElements && !field.facet) throw new Error(`"${name}" counts facet elements but is no facet`);
    if (field.type === "enum" && field.values.length === 0) throw new Error(`Enum field "${name}" has no values`);
    fields.set(name, {
      name,
      column: field.column,
      type: field.type,
      operators,
      defaultOperator,
      sortable: field.sortable ?? false,
      facet: field.facet ?? false,
      facetElements: field.facetElements ?? false,
      ...(field.type === "enum" ? { values: field.values } : {}),
      ...(field.type === "text" && field.normalize ? { normalize: field.normalize } : {}),
      ...(field.condition ? { condition: field.condition } : {}),
    });
  }

  const search = (definition.search ?? []).map((name) => {
    const field = fields.get(name);
    if (!field || (field.type !== "text" && field.type !== "enum")) {
      throw new Error(`Search field "${name}" must be a declared text or enum field`);
    }
    return field;
  });

  const descending = definition.defaultSort.startsWith("-");
  const sortField = descending ? definition.defaultSort.slice(1) : definition.defaultSort;
  if (!fields.get(sortField)?.sortable) throw new Error(`Default sort "${sortField}" is not a sortable field`);

  const totalFacet = definition.totalFromFacet === undefined ? undefined : fields.get(definition.totalFromFacet);
  if (totalFacet?.facetElements) {
    throw new Error(`totalFromFacet "${definition.totalFromFacet}" counts array elements, not rows`);
  }
  if (definition.totalFromFacet !== undefined && !totalFacet?.facet) {
    throw new Error(`totalFromFacet "${definition.totalFromFacet}" is not a facet field`);
  }

  const all = [...fields.values()];
  return {
    fields,
    filterableFields: all.filter((f) => f.operators.length > 0).map((f) => f.name),
    sortableFields: all.filter((f) => f.sortable).map((f) => f.name),
    facetFields: all.filter((f) => f.facet).map((f) => f.name),
    search,
    defaultSort: { field: sortField, direction: descending ? "desc" : "asc" },
    tiebreaker: definition.tiebreaker,
    allowFlatKeys: new Set(definition.allowFlatKeys ?? []),
    ...(definition.leadingOrder ? { leadingOrder: { ...definition.leadingOrder } } : {}),
    ...(definition.totalFromFacet !== undefined ? { totalFromFacet: definition.totalFromFacet } : {}),
    ...(definition.versionedBy?.length ? { versionedBy: [...definition.versionedBy] } : {}),
  };
}
