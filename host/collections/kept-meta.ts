// A versioned collection (spec.versionedBy) keeps each filtered set's total and facets per the version of its tables
// (host/db/table-versions.ts): the page query reads that version in its own statement, and while it is the kept
// meta's, the request costs the page query alone. Otherwise one more statement computes the meta with the version it
// saw. Kept in this process, bounded; the version makes a kept answer exact, never stale.
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

type Meta = Pick<CollectionResult<unknown>, "total" | "facets">;
const kept = new Map<string, { version: string; meta: Meta }>();

function keep(key: string, version: string, meta: Meta) {
  if (kept.size >= MAX_KEPT) kept.clear(); // bounded: churn only costs a statement
  kept.set(key, { version, meta });
}

export async function pageWithKeptMeta<DB, TB extends keyof DB, Row>(
  filtered: SelectQueryBuilder<DB, TB, Row>,
  order: OrderKey[],
  paging: { limit: number; offset: number },
  spec: CollectionSpec,
  versionedBy: readonly string[],
): Promise<CollectionResult<Row>> {
  const page = pageOf(filtered.select(tableVersion(versionedBy).as(VERSION)), order, paging);
  const records = (await page.execute()) as Record<string, unknown>[];
  const version = records[0]?.[VERSION] as string | undefined; // an empty page carries none: the meta is read
  // Cleared in place, not copied out (a copy of each row costs more than the query): JSON leaves an undefined out.
  for (const record of records) record[VERSION] = undefined;
  const rows = records as Row[];

  // The filtered set as it runs (the route's plugins applied) and its values name it.
  const compiled = filtered.compile();
  const key = `${compiled.sql}\n${JSON.stringify(compiled.parameters, (_k, v) => (typeof v === "bigint" ? `${v}n` : v))}`;
  const hit = version === undefined ? undefined : kept.get(key);
  if (hit && hit.version === version) return { rows, ...hit.meta };

  const { facts, total, facets } = metaOf(filtered, spec);
  const statement = filtered.withPlugin(
    replacedBy(
      composer
        .with("cqbase", () => facts)
        .selectNoFrom([total, facets, tableVersion(versionedBy).as(VERSION)])
        .toOperationNode(),
    ),
  );
  const [metaRow] = (await statement.execute()) as Record<string, unknown>[];
  const meta = decodeMeta(metaRow!, spec);
  keep(key, metaRow![VERSION] as string, meta);
  return { rows, ...meta };
}
