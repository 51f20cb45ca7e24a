// Reads a list route's query string (filter[..], sort, page[..]) into a CollectionQuery, or throws the spec's ApiError.
import { ApiError, badRequest } from "../errors/api-error.ts";
import {
  type CollectionField,
  type CollectionSpec,
  FLAT_KEYS,
  type FlatKey,
  OPERATORS,
  type Operator,
  SEARCH_KEY,
  type SortDirection,
} from "./spec.ts";
import { type FilterValue, invalidFilterValue, parseFieldValue } from "./values.ts";

export type FilterCondition =
  | { field: string; operator: "eq" | "ne" | "gt" | "gte" | "lt" | "lte" | "iLike" | "notILike"; value: FilterValue }
  | { field: string; operator: "inArray" | "notInArray"; values: FilterValue[] }
  | { field: string; operator: "between"; values: [FilterValue, FilterValue] }
  | { field: string; operator: "isEmpty" | "isNotEmpty" };

export interface CollectionQuery {
  /** All must hold. */
  filters: FilterCondition[];
  /** `filter[q]`, matched like iLike over the route's search fields; null when absent or empty. */
  search: string | null;
  sort: { field: string; direction: SortDirection };
  page: { offset: number; limit: number };
}

export const PAGE_OFFSET = { key: "page[offset]", min: 0, max: 10_000, default: 0 } as const;
export const PAGE_LIMIT = { key: "page[limit]", min: 1, max: 200, default: 50 } as const;
export const MAX_LIST_MEMBERS = 100;

const FLAT_KEY_HINTS: Record<FlatKey, string> = {
  sortBy: "send sort=<field> (prefix - for descending)",
  sortDirection: "send sort=-<field> for descending, sort=<field> for ascending",
  limit: "send page[limit]",
  offset: "send page[offset]",
  filters: "send filter[<field>] or filter[<field>][<operator>]",
};

const FILTER_KEY = /^filter\[([^[\]]*)\](?:\[([^[\]]*)\])?$/;

function isFlatKey(key: string): key is FlatKey {
  return (FLAT_KEYS as readonly string[]).includes(key);
}

function refuseFlatKeys(params: URLSearchParams, spec: CollectionSpec) {
  for (const key of new Set(params.keys())) {
    const flat = key.startsWith("filters[") ? "filters" : key;
    if (!isFlatKey(flat) || spec.allowFlatKeys.has(flat)) continue;
    const message = `${flat} is not supported; ${FLAT_KEY_HINTS[flat]}`;
    throw badRequest(message, [{ path: key, message }]);
  }
}

function single(params: URLSearchParams, key: string): string | null {
  const values = params.getAll(key);
  if (values.length > 1) throw badRequest(`${key} was sent more than once`, [{ path: key, message: "sent twice" }]);
  return values[0] ?? null;
}

function parseSort(params: URLSearchParams, spec: CollectionSpec): CollectionQuery["sort"] {
  const values = params.getAll("sort");
  if (values.length > 1 || values.some((v) => v.includes(","))) {
    throw new ApiError("COLLECTION_SORT_MULTI_FIELD_UNSUPPORTED", { details: { sortableFields: spec.sortableFields } });
  }
  const raw = values[0] ?? "";
  if (raw === "") return { ...spec.defaultSort };
  const descending = raw.startsWith("-");
  const field = descending ? raw.slice(1) : raw;
  if (!spec.fields.get(field)?.sortable) {
    throw new ApiError("COLLECTION_SORT_FIELD_UNKNOWN", {
      message: `Cannot sort by "${field}"; sortable fields: ${spec.sortableFields.join(", ")}`,
      details: { field, sortableFields: spec.sortableFields },
    });
  }
  return { field, direction: descending ? "desc" : "asc" };
}

function parsePageBound(
  params: URLSearchParams,
  bound: typeof PAGE_OFFSET | typeof PAGE_LIMIT,
  code: "COLLECTION_PAGE_OFFSET_OUT_OF_RANGE" | "COLLECTION_PAGE_LIMIT_OUT_OF_RANGE",
): number {
  const raw = single(params, bound.key);
  if (raw === null) return bound.default;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= bound.min && value <= bound.max)) {
    throw new ApiError(code, { details: { parameter: bound.key, value: raw, min: bound.min, max: bound.max } });
  }
  return value;
}

function refuseUnknownPageKeys(params: URLSearchParams) {
  for (const key of params.keys()) {
    if (key.startsWith("page[") && key !== PAGE_OFFSET.key && key !== PAGE_LIMIT.key) {
      throw badRequest(`${key} is not supported; send page[offset] and page[limit]`, [
        { path: key, message: "unknown page parameter" },
      ]);
    }
  }
}

function operatorUnknown(field: string, operator: string, supportedOperators: readonly string[]) {
  return new ApiError("COLLECTION_FILTER_OPERATOR_UNKNOWN", {
    message: `Operator "${operator}" is not supported on "${field}"; supported: ${supportedOperators.join(", ")}`,
    details: { field, operator, supportedOperators },
  });
}

function isOperator(value: string): value is Operator {
  return (OPERATORS as readonly string[]).includes(value);
}

function listMembers(field: CollectionField, raw: string): FilterValue[] {
  const members = raw.split(",");
  if (members.length > MAX_LIST_MEMBERS) {
    throw new ApiError("COLLECTION_FILTER_IN_LIST_TOO_LARGE", {
      details: { field: field.name, members: members.length, maxMembers: MAX_LIST_MEMBERS },
    });
  }
  return members.map((member) => parseFieldValue(field, member));
}

function parseCondition(field: CollectionField, operator: Operator, raw: string): FilterCondition {
  switch (operator) {
    case "inArray":
    case "notInArray":
      return { field: field.name, operator, values: listMembers(field, raw) };
    case "between": {
      const bounds = raw.split(",");
      if (bounds.length !== 2) {
        throw invalidFilterValue(field.name, `between takes exactly two comma-separated values, got ${bounds.length}`);
      }
      return {
        field: field.name,
        operator,
        values: [parseFieldValue(field, bounds[0]), parseFieldValue(field, bounds[1])],
      };
    }
    case "isEmpty":
    case "isNotEmpty":
      if (raw !== "") throw invalidFilterValue(field.name, `${operator} takes no value`);
      return { field: field.name, operator };
    default:
      return { field: field.name, operator, value: parseFieldValue(field, raw) };
  }
}

function parseFilters(params: URLSearchParams, spec: CollectionSpec): Pick<CollectionQuery, "filters" | "search"> {
  const filters: FilterCondition[] = [];
  let search: string | null = null;
  let searchSeen = false;
  for (const [key, raw] of params) {
    if (key !== "filter" && !key.startsWith("filter[")) continue;
    const match = FILTER_KEY.exec(key);
    if (!match) {
      throw badRequest(`Malformed filter parameter ${key}; send filter[<field>] or filter[<field>][<operator>]`, [
        { path: key, message: "malformed filter parameter" },
      ]);
    }
    const [, name, explicitOperator] = match;
    if (name === SEARCH_KEY && spec.search.length > 0) {
      if (explicitOperator !== undefined && explicitOperator !== "iLike") {
        throw operatorUnknown(SEARCH_KEY, explicitOperator, ["iLike"]);
      }
      if (searchSeen)
        throw badRequest("filter[q] was sent more than once", [{ path: "filter.q", message: "sent twice" }]);
      searchSeen = true;
      search = raw === "" ? null : raw;
      continue;
    }
    const field = spec.fields.get(name);
    if (!field || field.operators.length === 0) {
      throw new ApiError("COLLECTION_FILTER_FIELD_UNKNOWN", {
        message: `Cannot filter on "${name}"; filterable fields: ${spec.filterableFields.join(", ")}`,
        details: { field: name, filterableFields: spec.filterableFields },
      });
    }
    const operator = explicitOperator ?? field.defaultOperator;
    if (!isOperator(operator) || !field.operators.includes(operator)) {
      throw operatorUnknown(field.name, operator, field.operators);
    }
    filters.push(parseCondition(field, operator, raw));
  }
  return { filters, search };
}

/** Pure: reads `params` (e.g. `new URL(c.req.url).searchParams`) against the route's spec; ignores unrelated keys. */
export function parseCollectionQuery(params: URLSearchParams, spec: CollectionSpec): CollectionQuery {
  refuseFlatKeys(params, spec);
  const sort = parseSort(params, spec);
  refuseUnknownPageKeys(params);
  const offset = parsePageBound(params, PAGE_OFFSET, "COLLECTION_PAGE_OFFSET_OUT_OF_RANGE");
  const limit = parsePageBound(params, PAGE_LIMIT, "COLLECTION_PAGE_LIMIT_OUT_OF_RANGE");
  return { ...parseFilters(params, spec), sort, page: { offset, limit } };
}
