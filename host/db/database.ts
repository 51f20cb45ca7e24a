// The platform's own tables (schema `platform`) and the index's views (schema from INDEX_VIEWS_SCHEMA, and one
// schema of views per chain: host/db/chain-views.ts), all through kysely on one pg pool.
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { RowCamelCasePlugin } from "./camel-case-rows.ts";
import { chainViewsSchema } from "./chain-views.ts";
import type { LedgerTables } from "./ledger-types.ts";
import { LocalPlatformChangesPlugin } from "./local-platform-changes.ts";
import { type ChannelListener, listenChannel } from "./notifications.ts";
import type { PlatformTables } from "./platform-types.ts";

// numeric(78,0) (uint256 columns, block numbers) and int8 arrive as bigint, not as lossy JS numbers or strings.
// Local to this pool: graphile-worker and Ponder use pg too and expect its defaults.
const typeParsers = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === pg.types.builtins.NUMERIC) return (v: string) => (/^-?\d+$/.test(v) ? BigInt(v) : v);
    if (oid === pg.types.builtins.INT8) return (v: string) => BigInt(v);
    return pg.types.getTypeParser(oid, format);
  },
};

export type PlatformDb = Kysely<PlatformTables>;
export type LedgerDb = Kysely<LedgerTables>;

export interface Databases {
  pool: pg.Pool;
  platform: PlatformDb;
  /** The index as one chain sees it: every table and join holds that chain's rows only. */
  ledgerOn(chainId: number): LedgerDb;
  /** INDEX_VIEWS_SCHEMA. */
  viewsSchema: string;
  /**
   * This process's listener on a NOTIFY channel, one per channel (its connection opens for the first subscriber and
   * closes after the last); `keyOf` routes a payload to its subscribers (default: the payload itself).
   */
  listen(channel: string, keyOf?: (payload: string) => string | undefined): ChannelListener;
  close(): Promise<void>;
}

export function openDatabases(url: string, viewsSchema: string, max = 10): Databases {
  const pool = new pg.Pool({ connectionString: url, max, types: typeParsers as pg.CustomTypesConfig });
  // A dropped connection must not crash the process; the next query on it reports the failure.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const dialect = new PostgresDialect({ pool });
  const platform = new Kysely<PlatformTables>({
    dialect,
    plugins: [new RowCamelCasePlugin(), new LocalPlatformChangesPlugin()],
  }).withSchema("platform");
  const index = new Kysely<LedgerTables>({ dialect, plugins: [new RowCamelCasePlugin()] });
  const chainLedgers = new Map<number, LedgerDb>();
  const listeners = new Map<string, ChannelListener>();
  return {
    pool,
    platform: platform as unknown as PlatformDb,
    ledgerOn(chainId) {
      let ledger = chainLedgers.get(chainId);
      if (!ledger) {
        ledger = index.withSchema(chainViewsSchema(viewsSchema, chainId)) as unknown as LedgerDb;
        chainLedgers.set(chainId, ledger);
      }
      return ledger;
    },
    viewsSchema,
    listen(channel, keyOf) {
      let listener = listeners.get(channel);
      if (!listener) {
        listener = listenChannel({ connectionString: url }, channel, keyOf);
        listeners.set(channel, listener);
      }
      return listener;
    },
    close: () => pool.end(),
  };
}
