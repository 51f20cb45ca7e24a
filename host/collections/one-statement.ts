// One statement answers a collection request: the page, the total and the facets of the filtered set together.
import { type AliasedExpression, type KyselyPlugin, type SelectQueryBuilder, type SelectQueryNode, sql } from "kysely";
import pg from "pg";
import { compilingOnly } from "../db/compiling-only.ts";
import type { CollectionSpec, SortDirection } from "./spec.ts";

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

export interface OrderKey {
  column: string;
  direction: SortDirection;
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
const FIRST = "cqfirst";
const orderAlias = (i: number) => `cqorder${i}`;
const facetAlias = (i: number) => `cqfacet${i}`;

/** Builds the statement around the route's own (already plugin-transformed) selects; it never executes anything. */
export const composer = compilingOnly<Record<string, Record<string, unknown>>>();

/**
 * Runs `statement` in place of the route's select, through the route's own executor: its pool, its result plugins
 * (CamelCasePlugin maps the row keys as before), its log sees the one query.
 */
export function replacedBy(statement: SelectQueryNode): KyselyPlugin {
  return {
    transformQuery: () => statement,
    transformResult: async ({ result }) => result,
  };
}

/**
 * Page, total and facets of `filtered` (the route's select with the request's filters) in ONE statement, one round
 * trip: the facet columns of the filtered set as a CTE, its count and one json_agg per facet computed once in a
 * one-row `meta`, left-joined to the page so that a page past the end still carries them.
 */
export async function oneStatement<DB, TB extends keyof DB, Row>(
  filtered: SelectQueryBuilder<DB, TB, Row>,
  order: OrderKey[],
  paging: { limit: number; offset: number },
  spec: CollectionSpec,
): Promise<CollectionResult<Row>> {
  // The page selects its order keys too: the outer query orders by them (a join keeps no order by itself).
  const page = pageOf(
    filtered.select([
      sql<boolean>`true`.as(PRESENT),
      ...order.map(({ column }, i) => sql.ref(column).as(orderAlias(i))),
    ]),
    order,
    paging,
  );

  const { facts, total, facets } = metaOf(filtered, spec);
  // One row carries the meta (any one: the outer order is applied after), so that it is read and parsed once.
  const once = (column: string) => sql`case when row_number() over () = 1 then cqmeta.${sql.ref(column)} end`;
  let statement = composer
    .with("cqbase", () => facts)
    .selectFrom(composer.selectNoFrom([total, facets]).as("cqmeta"))
    .leftJoin(page.as("cqpage") as unknown as AliasedExpression<object, "cqpage">, (join) => join.onTrue())
    .selectAll("cqpage")
    .select([once(TOTAL).as(TOTAL), once(FACETS).as(FACETS), sql`row_number() over () = 1`.as(FIRST)]);
  for (const [i, { direction }] of order.entries())
    statement = statement.orderBy(sql.ref(`cqpage.${orderAlias(i)}`), direction);

  const records = (await filtered.withPlugin(replacedBy(statement.toOperationNode())).execute()) as Record<
    string,
    unknown
  >[];
  const meta = records.find((record) => record[FIRST] === true)!; // the meta is always there, also for an empty page
  const engineColumns = new Set([TOTAL, FACETS, FIRST, PRESENT, ...order.map((_, i) => orderAlias(i))]);
  const rows = meta[PRESENT] === null ? [] : records.map((record) => pageRow(record, engineColumns));
  return { rows: rows as Row[], ...decodeMeta(meta, spec) };
}

/** `select`'s page: in the request's order (the route's own order cleared), then limited and offset. */
export function pageOf<DB, TB extends keyof DB, Row>(
  select: SelectQueryBuilder<DB, TB, Row>,
  order: OrderKey[],
  paging: { limit: number; offset: number },
): SelectQueryBuilder<DB, TB, Row> {
  let page = select.clearOrderBy();
  for (const { column, direction } of order) page = page.orderBy(sql.ref(column), direction);
  return page.limit(paging.limit).offset(paging.offset);
}

/**
 * The meta of `filtered`: its facet columns as the `cqbase` CTE, the total over it (unless the spec takes it from a
 * facet) and one json_agg per facet, its buckets most frequent first, ties in the column's order.
 */
export function metaOf<DB, TB extends keyof DB, Row>(filtered: SelectQueryBuilder<DB, TB, Row>, spec: CollectionSpec) {
  const facetColumns = spec.facetFields.map((name, i) => sql.ref(spec.fields.get(name)!.column).as(facetAlias(i)));
  const facts = filtered
    .clearSelect()
    .clearOrderBy()
    .select(facetColumns.length > 0 ? facetColumns : [sql`1`.as("cqone")]);
  const total = spec.totalFromFacet ? sql`null` : sql`(select count(*) from cqbase)`;
  // An array column's facet counts its elements: each row once per value it holds.
  const facetValues = (i: number) =>
    spec.fields.get(spec.facetFields[i]!)!.facetElements
      ? sql`select e as v, count(*) as n from cqbase cross join lateral unnest(${sql.ref(facetAlias(i))}) as e group by 1`
      : sql`select ${sql.ref(facetAlias(i))} as v, count(*) as n from cqbase group by 1`;
  // json_build_array(): no literal in the SQL.
  const facetBuckets = (i: number) =>
    sql`(select coalesce(json_agg(json_build_array(pg_typeof(v)::oid, v::text, n) order by n desc, v asc), json_build_array()) from (${facetValues(i)}) as g)`;
  const facets =
    spec.facetFields.length === 0
      ? sql`null`
      : sql`json_build_array(${sql.join(spec.facetFields.map((_, i) => facetBuckets(i)))})`;
  return { facts, total: total.as(TOTAL), facets: facets.as(FACETS) };
}

/** The total and facets of a meta row (`metaOf`'s columns). */
export function decodeMeta(
  meta: Record<string, unknown>,
  spec: CollectionSpec,
): Pick<CollectionResult<unknown>, "total" | "facets"> {
  const facetResult = spec.facetFields.map(
    (name, i) => [name, (meta[FACETS] as WireBucket[][])[i]!.map(bucket)] as const,
  );
  const fromFacet = spec.totalFromFacet;
  return {
    total: fromFacet
      ? facetResult.find(([name]) => name === fromFacet)![1].reduce((sum, b) => sum + b.count, 0)
      : toCount(meta[TOTAL]),
    ...(spec.facetFields.length > 0 ? { facets: Object.fromEntries(facetResult) } : {}),
  };
}

/** The route's own columns of a result row, in their order. */
function pageRow(record: Record<string, unknown>, engineColumns: ReadonlySet<string>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const key in record) if (!engineColumns.has(key)) row[key] = record[key];
  return row;
}
