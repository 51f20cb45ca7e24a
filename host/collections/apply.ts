// Runs a parsed CollectionQuery on a route's base select: its filters, search and order; one statement answers.
import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import { pageWithKeptMeta } from "./kept-meta.ts";
import { type CollectionResult, type OrderKey, oneStatement } from "./one-statement.ts";
import type { CollectionQuery, FilterCondition } from "./parse.ts";
import type { CollectionField, CollectionSpec } from "./spec.ts";
import type { FilterValue } from "./values.ts";

export type { CollectionResult, FacetBucket } from "./one-statement.ts";

/** `iLike` takes a pattern; without a `%` it matches anywhere in the value. Nothing is escaped: it is bound. */
export function likePattern(value: string): string {
  return value.includes("%") ? value : `%${value}%`;
}

const NO_ESCAPE = ""; // bound like every value: the SQL text stays free of literals

/** `text ilike pattern` with no escape character: `%` and `_` are wildcards, a backslash is just a backslash. */
function ilike(field: CollectionField, value: string, negated = false) {
  return negated
    ? sql<boolean>`${textOf(field)} not ilike ${likePattern(value)} escape ${NO_ESCAPE}`
    : sql<boolean>`${textOf(field)} ilike ${likePattern(value)} escape ${NO_ESCAPE}`;
}

/** The field's declared column; a name from the route's spec, never from the query string. */
function columnOf(field: CollectionField) {
  return sql.ref(field.column);
}

/** Pattern operators read an enum column as text (a PostgreSQL enum has no ILIKE). */
function textOf(field: CollectionField) {
  return field.type === "enum" ? sql<string>`cast(${columnOf(field)} as text)` : columnOf(field);
}

/** A bound value; integers are bound as bigint so that a value past an int4 column's range compares, not errors. */
function bound(field: CollectionField, value: FilterValue) {
  return field.type === "number" ? sql<number>`cast(${value} as bigint)` : value;
}

function members(field: CollectionField, values: FilterValue[]) {
  return values.map((value) => bound(field, value));
}

/**
 * One filter. Negations (ne, notILike, notInArray) also match NULL, so that a positive operator and its negation
 * together cover every row. isEmpty is NULL, or the empty string for text.
 */
function condition<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  field: CollectionField,
  filter: FilterCondition,
): Expression<SqlBool> {
  const column = columnOf(field);
  const isNull = () => eb(column, "is", null);
  switch (filter.operator) {
    case "eq":
      return eb(column, "=", bound(field, filter.value));
    case "ne":
      return eb(column, "is distinct from", bound(field, filter.value));
    case "gt":
      return eb(column, ">", bound(field, filter.value));
    case "gte":
      return eb(column, ">=", bound(field, filter.value));
    case "lt":
      return eb(column, "<", bound(field, filter.value));
    case "lte":
      return eb(column, "<=", bound(field, filter.value));
    case "iLike":
      return ilike(field, String(filter.value));
    case "notILike":
      return eb.or([ilike(field, String(filter.value), true), isNull()]);
    case "inArray":
      return eb(column, "in", members(field, filter.values));
    case "notInArray":
      return eb.or([eb(column, "not in", members(field, filter.values)), isNull()]);
    case "between":
      return eb.between(column, bound(field, filter.values[0]), bound(field, filter.values[1]));
    case "isEmpty":
      return field.type === "text" ? eb.or([isNull(), eb(column, "=", "")]) : isNull();
    case "isNotEmpty":
      return field.type === "text"
        ? eb.and([eb(column, "is not", null), eb(column, "<>", "")])
        : eb(column, "is not", null);
  }
}

function where<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  query: CollectionQuery,
  spec: CollectionSpec,
): Expression<SqlBool> {
  const conditions = query.filters.map((filter) => {
    const field = spec.fields.get(filter.field);
    if (!field) throw new Error(`Filter on undeclared field ${filter.field}`);
    return field.condition ? field.condition(filter) : condition(eb, field, filter);
  });
  if (query.search !== null && spec.search.length > 0) {
    const search = query.search;
    conditions.push(eb.or(spec.search.map((field) => ilike(field, search))));
  }
  return eb.and(conditions);
}

/**
 * `base` is the route's unpaged select (its scope, e.g. the caller's organisation, already in its where clause;
 * no group by, distinct, order, limit or offset: the engine owns those). Rows are ordered by the spec's leading order
 * (when declared), the sort field, then the spec's tiebreaker column; page, total and facets come from one statement,
 * or for a versioned collection from the page query and the total and facets kept per its tables' version.
 */
export function runCollection<DB, TB extends keyof DB, Row>(
  base: SelectQueryBuilder<DB, TB, Row>,
  query: CollectionQuery,
  spec: CollectionSpec,
): Promise<CollectionResult<Row>> {
  const filtered =
    query.filters.length > 0 || query.search !== null ? base.where((eb) => where(eb, query, spec)) : base;
  const sortField = spec.fields.get(query.sort.field);
  if (!sortField) throw new Error(`Sort on undeclared field ${query.sort.field}`);
  const { direction } = query.sort;
  // A sort on the leading column itself is the caller's explicit order: it replaces the leading one.
  const leading = spec.leadingOrder?.column === sortField.column ? undefined : spec.leadingOrder;
  const order: OrderKey[] = [
    ...(leading ? [leading] : []),
    { column: sortField.column, direction },
    { column: spec.tiebreaker, direction },
  ];
  const { versionedBy } = spec;
  return versionedBy
    ? pageWithKeptMeta(filtered, order, query.page, spec, versionedBy)
    : oneStatement(filtered, order, query.page, spec);
}
