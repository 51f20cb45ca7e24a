// Runs a parsed CollectionQuery on a route's base select: filtered, sorted, paged rows plus total and facets.
import {
  type AliasedExpression,
  DummyDriver,
  type Expression,
  type ExpressionBuilder,
  Kysely,
  type KyselyPlugin,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type SelectQueryBuilder,
  type SelectQueryNode,
  type SqlBool,
  sql,
} from "kysely";
import pg from "pg";
import type { CollectionQuery, FilterCondition } from "./parse.ts";
import type { CollectionField, CollectionSpec, SortDirection } from "./spec.ts";
import type { FilterValue } from "./values.ts";

export interface FacetBucket {
  value: string | number | boolean | null;
  count: number;
}

export interface CollectionResult<Row> {
  rows: Row[];
  /** Rows matching the filters and search, before paging. */
  total: number;
  /** Per facet field, `{value, count}` over the filtered set, most frequent first; absent when none is declared. */
  facets?: Record<string, FacetBucket[]>;
}

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

/** Values as JSON carries them: numeric (bigint) as a decimal string, timestamps as ISO 8601. */
function facetValue(value: unknown): FacetBucket["value"] {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return String(value);
}

/** count(*) arrives as bigint or string depending on the pg type parser in use. */
function toCount(value: unknown): number {
  return Number(String(value));
}

/**
 * A facet value travels inside the statement's JSON as its column's type oid and text form; pg's parser for that
 * type gives the value a query of its own would (a Date for timestamptz; int8 and numeric give the same decimal
 * string through facetValue whether the pool parses them as bigint or leaves them strings).
 */
type WireBucket = [oid: number, text: string | null, count: number];

function bucket([oid, text, count]: WireBucket): FacetBucket {
  return { value: text === null ? null : facetValue(pg.types.getTypeParser(oid, "text")(text)), count };
}

// The statement's own output columns: lowercase without underscores, so that a CamelCasePlugin leaves them as named.
const TOTAL = "cqtotal";
const FACETS = "cqfacets";
const PRESENT = "cqrow";
const orderAlias = (i: number) => `cqorder${i}`;
const facetAlias = (i: number) => `cqfacet${i}`;

/** Builds the statement around the route's own (already plugin-transformed) selects; it never executes anything. */
const composer = new Kysely<Record<string, Record<string, unknown>>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/**
 * Runs `statement` in place of the route's select, through the route's own executor: its pool, its result plugins
 * (CamelCasePlugin maps the row keys as before), its log sees the one query.
 */
function replacedBy(statement: SelectQueryNode): KyselyPlugin {
  return {
    transformQuery: () => statement,
    transformResult: async ({ result }) => result,
  };
}

/**
 * `base` is the route's unpaged select (its scope, e.g. the caller's organisation, already in its where clause;
 * no group by, distinct, order, limit or offset: the engine owns those). Page, total and facets come from ONE
 * statement, one round trip: the facet columns of the filtered base as a CTE, its count and one json_agg per facet
 * computed once in a one-row `meta`, left-joined to the page so that a page past the end still carries them. Rows
 * are ordered by the spec's leading order (when declared), the sort field, then the spec's tiebreaker column.
 */
export async function runCollection<DB, TB extends keyof DB, Row>(
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
  const orders: [column: string, direction: SortDirection][] = [
    ...(leading ? [[leading.column, leading.direction] as [string, SortDirection]] : []),
    [sortField.column, direction],
    [spec.tiebreaker, direction],
  ];
  // The page selects its order keys too: the outer query orders by them (a join keeps no order by itself).
  let page = filtered
    .clearOrderBy()
    .select([sql<boolean>`true`.as(PRESENT), ...orders.map(([column], i) => sql.ref(column).as(orderAlias(i)))]);
  for (const [column, dir] of orders) page = page.orderBy(sql.ref(column), dir);
  page = page.limit(query.page.limit).offset(query.page.offset);

  const facetColumns = spec.facetFields.map((name, i) => sql.ref(spec.fields.get(name)!.column).as(facetAlias(i)));
  const facts = filtered
    .clearSelect()
    .clearOrderBy()
    .select(facetColumns.length > 0 ? facetColumns : [sql`1`.as("cqone")]);
  const total = spec.totalFromFacet ? sql`null` : sql`(select count(*) from cqbase)`;
  // Per facet, its buckets most frequent first, ties in the column's order (json_build_array(): no literal in the SQL).
  const facetBuckets = (i: number) =>
    sql`(select coalesce(json_agg(json_build_array(pg_typeof(v)::oid, v::text, n) order by n desc, v asc), json_build_array()) from (select ${sql.ref(facetAlias(i))} as v, count(*) as n from cqbase group by 1) as g)`;
  const facets =
    spec.facetFields.length === 0
      ? sql`null`
      : sql`json_build_array(${sql.join(spec.facetFields.map((_, i) => facetBuckets(i)))})`;
  let statement = composer
    .with("cqbase", () => facts)
    .selectFrom(composer.selectNoFrom([total.as(TOTAL), facets.as(FACETS)]).as("cqmeta"))
    .leftJoin(page.as("cqpage") as unknown as AliasedExpression<object, "cqpage">, (join) => join.onTrue())
    .selectAll();
  for (const [i, [, dir]] of orders.entries()) statement = statement.orderBy(sql.ref(`cqpage.${orderAlias(i)}`), dir);

  const records = (await filtered.withPlugin(replacedBy(statement.toOperationNode())).execute()) as unknown as Record<
    string,
    unknown
  >[];
  const meta = records[0]!; // the one-row meta is always there, with NULLs for the page's columns when it is empty
  const rows = meta[PRESENT] === null ? [] : records.map(pageRow);
  const facetResult = spec.facetFields.map(
    (name, i) => [name, (meta[FACETS] as WireBucket[][])[i]!.map(bucket)] as const,
  );
  const fromFacet = spec.totalFromFacet;
  return {
    rows: rows as Row[],
    total: fromFacet
      ? facetResult.find(([name]) => name === fromFacet)![1].reduce((sum, b) => sum + b.count, 0)
      : toCount(meta[TOTAL]),
    ...(spec.facetFields.length > 0 ? { facets: Object.fromEntries(facetResult) } : {}),
  };
}

const ENGINE_COLUMNS = /^cq(total|facets|row|order\d+)$/;

/** The route's own columns of a result row, in their order. */
function pageRow(record: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const key in record) if (!ENGINE_COLUMNS.test(key)) row[key] = record[key];
  return row;
}
