// A list over the index of the request's chain, scoped to the organisation's system there (collectionPage with the
// request's chain resolved after the query is parsed).
import type { Context } from "hono";
import type { SelectQueryBuilder } from "kysely";
import type { Address } from "viem";
import { type RequestChain, type RequestChainContext, requestChain } from "../chain/request-chain.ts";
import type { LedgerDb } from "../db/database.ts";
import type { AppEnv } from "../http/env.ts";
import { collectionPage } from "./page.ts";
import type { CollectionSpec } from "./spec.ts";

export function systemCollection<DB, TB extends keyof DB, Row, Item>(
  c: Context<AppEnv>,
  ctx: RequestChainContext,
  spec: CollectionSpec,
  /** May look things up first and refuse (e.g. an identity not in the system's registry). */
  select: (
    ledger: LedgerDb,
    systemAddress: Address,
  ) => SelectQueryBuilder<DB, TB, Row> | Promise<SelectQueryBuilder<DB, TB, Row>>,
  toItems: (rows: Row[], chain: RequestChain) => Item[] | Promise<Item[]>,
) {
  let chain: RequestChain;
  return collectionPage(
    c,
    spec,
    async () => {
      chain = await requestChain(c, ctx);
      return select(chain.ledger, chain.systemAddress);
    },
    (rows) => toItems(rows, chain),
  );
}
