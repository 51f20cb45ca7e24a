// A list over the index of the request's chain, scoped to the organisation's system there: the query parsed (its
// errors first), the system's rows selected, filtered, sorted and paged, the page's rows made items, the envelope.
import type { Context } from "hono";
import type { SelectQueryBuilder } from "kysely";
import type { Address } from "viem";
import { type RequestChain, type RequestChainContext, requestChain } from "../chain/request-chain.ts";
import type { LedgerDb } from "../db/database.ts";
import type { AppEnv } from "../http/env.ts";
import { collection } from "../http/envelopes.ts";
import { runCollection } from "./apply.ts";
import { parseCollectionQuery } from "./parse.ts";
import type { CollectionSpec } from "./spec.ts";

export async function systemCollection<DB, TB extends keyof DB, Row, Item>(
  c: Context<AppEnv>,
  ctx: RequestChainContext,
  spec: CollectionSpec,
  select: (ledger: LedgerDb, systemAddress: Address) => SelectQueryBuilder<DB, TB, Row>,
  toItems: (rows: Row[], chain: RequestChain) => Item[] | Promise<Item[]>,
) {
  const query = parseCollectionQuery(new URL(c.req.url).searchParams, spec);
  const chain = await requestChain(c, ctx);
  const { rows, total, facets } = await runCollection(select(chain.ledger, chain.systemAddress), query, spec);
  return collection(c, await toItems(rows, chain), total, query.page, facets);
}
