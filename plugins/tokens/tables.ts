// The plugin's own table (plugins/tokens/migrations.ts), the columns it reads of the compliance-templates plugin's
// table (a plugin does not import another), and the platform db widened with both.
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

/** What token creation reads of a compliance template (platform.compliance_templates, read only). */
interface ComplianceTemplateReads {
  id: string;
  organizationId: string | null;
  isSystem: boolean;
  isDraft: boolean;
  modules: { typeId: string; params?: Record<string, unknown> }[];
  requiredControls: string[];
}

// A type alias, not an interface: withTables wants an index signature.
export type TokensTables = {
  tokenTemplates: TokenTemplatesTable;
  complianceTemplates: ComplianceTemplateReads;
};

export const tokensDb = (db: PlatformDb) => db.withTables<TokensTables>();
