// The plugin's table (migrations.ts) as a Kysely type, and the platform db widened with it.
import type { ColumnType, Selectable } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface ExchangeRateOverridesTable {
  id: string;
  organizationId: string;
  chainId: number;
  baseCurrency: string;
  quoteCurrency: string;
  /** A positive decimal string, as the caller sent it (normalised). */
  rate: string;
  effectiveAt: Timestamp;
  createdBy: string;
  createdAt: Timestamp;
  /** Set by DELETE; the override then only shows in the history. */
  removedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export type ExchangeRateTables = { exchangeRateOverrides: ExchangeRateOverridesTable };
export type OverrideRow = Selectable<ExchangeRateOverridesTable>;

export const ratesDb = (db: PlatformDb) => db.withTables<ExchangeRateTables>();
