// The plugin's own table (plugins/tokens/migrations.ts) and the platform db widened with it.
import type { ColumnType } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface TokenTemplatesTable {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  requiredFeatures: string[];
  allowedFeatures: string[];
  defaults: { decimals: number; featureConfigs: Record<string, Record<string, unknown>> };
  complianceTemplateId: string | null;
  createdBy: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

// A type alias, not an interface: withTables wants an index signature.
export type TokensTables = {
  tokenTemplates: TokenTemplatesTable;
};

export const tokensDb = (db: PlatformDb) => db.withTables<TokensTables>();
