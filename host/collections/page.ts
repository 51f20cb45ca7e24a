// One collection answer, the way every list route gives it: the query parsed first (its errors before any lookup),
// the rows `base` selects (it may look things up and refuse, e.g. an unknown token) filtered, sorted and paged, the
// page's rows made items, the envelope with links and facets.
import type { Context } from "hono";
import type { SelectQueryBuilder } from "kysely";
import type { AppEnv } from "../http/env.ts";
import { collection } from "../http/envelopes.ts";
import { runCollection } from "./apply.ts";
import { parseCollectionQuery } from "./parse.ts";
import type { CollectionSpec } from "./spec.ts";

export async function collectionPage<DB, TB extends keyof DB, Row, Item>(
  c: Context<AppEnv>,
  spec: CollectionSpec,
  base: () => SelectQueryBuilder<DB, TB, Row> | Promise<SelectQueryBuilder<DB, TB, Row>>,
  toItems: (rows: Row[]) => Item[] | Promise<Item[]>,
) {
  const query = parseCollectionQuery(new URL(c.req.url).searchParams, spec);
  const { rows, total, facets } = await runCollection(await base(), query, spec);
  return collection(c, await toItems(rows), total, query.page, facets);
}
