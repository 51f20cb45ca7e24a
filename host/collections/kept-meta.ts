// A versioned collection (spec.versionedBy) keeps each filtered set's total and facets per the version of its tables
// (host/db/table-versions.ts): the page query reads that version in its own statement, and while it is the kept
// meta's, the request costs the page query alone. Otherwise one more statement computes the meta with the version it
// saw. The answered page is kept too: a request for it asks the tables' version alone (one row of a small index, not
// the page's rows) and, while unchanged, is answered from memory. A page whose tables changed under it is not kept
// again for a while, so a collection written all the time costs the page query alone, not a version probe as well.
// Kept in this process, bounded; the version (which names its database) makes a kept answer exact, never stale.
import type { SelectQueryBuilder } from "kysely";
import { tableVersion } from "../db/table-versions.ts";
import {
  type CollectionResult,
  composer,
  decodeMeta,
  metaOf,
  type OrderKey,
  pageOf,
  replacedBy,
} from "./one-statement.ts";
import type { CollectionSpec } from "./spec.ts";

const VERSION = "cqversion";
const MAX_KEPT = 2_000;
const MAX_KEPT_PAGES = 256;
/** How long a page whose tables changed while it was kept is neither probed nor kept. */
const CHANGING_MS = 1_000;

type Meta = Pick<CollectionResult<unknown>, "total" | "facets">;
const kept = new Map<string, { version: string; meta: Meta }>();
const keptPages = new Map<string, { version: string; result: CollectionResult<unknown> }>();
const changing = new Map<string, number>();

function keep(key: string, version: string, meta: Meta) {
  if (kept.size >= MAX_KEPT) kept.clear(); // bounded: churn only costs a statement
  kept.set(key, { version, meta });
}

function keepPage(key: string, version: string, result: CollectionResult<unknown>) {
  if (keptPages.size >= MAX_KEPT_PAGES) keptPages.delete(keptPages.keys().next().value!); // the oldest kept first
  // Frozen: every request that reads a kept page shares its rows.
  for (const row of result.rows) Object.freeze(row);
  keptPages.set(key, { version, result });
}

/** Marks a page read, not probed, for CHANGING_MS; entries past their time go first (else one per page, forever). */
function markChanging(key: string) {
  const now = Date.now();
  if (changing.size >= MAX_KEPT_PAGES) for (const [other, until] of changing) if (until <= now) changing.delete(other);
  changing.set(key, now + CHANGING_MS);
}

/** A compiled statement as a key: its SQL and its values. */
const keyOf = ({ sql, parameters }: { sql: string; parameters: readonly unknown[] }) =>
  `${sql}\n${JSON.stringify(parameters, (_k, v) => (typeof v === "bigint" ? `${v}n` : v))}`;

/** Runs `statement` in place of `query` (on its executor: the same database and plugins). */
function runInstead<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  statement: ReturnType<typeof composer.selectNoFrom>,
) {
  return query.withPlugin(replacedBy(statement.toOperationNode())).execute() as Promise<Record<string, unknown>[]>;
}

export async function pageWithKeptMeta<DB, TB extends keyof DB, Row>(
  filtered: SelectQueryBuilder<DB, TB, Row>,
  order: OrderKey[],
  paging: { limit: number; offset: number },
  spec: CollectionSpec,
  versionedBy: readonly string[],
): Promise<CollectionResult<Row>> {
  const page = pageOf(filtered.select(tableVersion(versionedBy).as(VERSION)), order, paging);
  const pageKey = keyOf(page.compile());
  const keptPage = keptPages.get(pageKey);
  if (keptPage) {
    const [probe] = await runInstead(filtered, composer.selectNoFrom([tableVersion(versionedBy).as(VERSION)]));
    if (probe![VERSION] === keptPage.version) return keptPage.result as CollectionResult<Row>;
    keptPages.delete(pageKey);
    markChanging(pageKey);
  }
  const { result, version } = await readPage(filtered, page, spec, versionedBy);
  const changingUntil = changing.get(pageKey);
  if (changingUntil !== undefined && changingUntil > Date.now()) return result;
  changing.delete(pageKey);
  if (version !== undefined) keepPage(pageKey, version, result);
  return result;
}

/** The page from its query, and its total and facets kept or read; with the version the page was read at. */
async function readPage<DB, TB extends keyof DB, Row>(
  filtered: SelectQueryBuilder<DB, TB, Row>,
  page: ReturnType<typeof pageOf>,
  spec: CollectionSpec,
  versionedBy: readonly string[],
): Promise<{ result: CollectionResult<Row>; version?: string }> {
  const records = (await page.execute()) as Record<string, unknown>[];
  const version = records[0]?.[VERSION] as string | undefined; // an empty page carries none: the meta is read
  // Cleared in place, not copied out (a copy of each row costs more than the query): JSON leaves an undefined out.
  for (const record of records) record[VERSION] = undefined;
  const rows = records as Row[];

  // The filtered set as it runs (the route's plugins applied) and its values name it.
  const key = keyOf(filtered.compile());
  const hit = version === undefined ? undefined : kept.get(key);
  if (hit && hit.version === version) return { result: { rows, ...hit.meta }, version };

  const { facts, total, facets } = metaOf(filtered, spec);
  const [metaRow] = await runInstead(
    filtered,
    composer.with("cqbase", () => facts).selectNoFrom([total, facets, tableVersion(versionedBy).as(VERSION)]),
  );
  const meta = decodeMeta(metaRow!, spec);
  const metaVersion = metaRow![VERSION] as string;
  keep(key, metaVersion, meta);
  // The page and its meta make one answer of one version only when no write came between their statements.
  return { result: { rows, ...meta }, version: metaVersion === version ? version : undefined };
}
