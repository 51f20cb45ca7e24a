// The plugin's own table (plugins/compliance-templates/migrations.ts) and the platform db widened with it.
import type { ColumnType, Selectable } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface ComplianceTemplateModule {
  typeId: string;
  params?: Record<string, unknown>;
}

/**
 * A compliance template: library rows have organizationId null and isSystem true and are never drafts. Token
 * creation may use a template whose isDraft is false (a published organisation template or a library one) and
 * encodes each module's params with domain/compliance/control-types.ts.
 */
export interface ComplianceTemplatesTable {
  id: string;
  organizationId: string | null;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  /** Uppercase codes (e.g. DE, EU); empty means a global template. */
  jurisdictions: ColumnType<string[], string[] | undefined, string[]>;
  isSystem: ColumnType<boolean, boolean | undefined, boolean>;
  isDraft: ColumnType<boolean, boolean | undefined, boolean>;
  /** 1 legacy, 2 current; fixed at creation. */
  moduleSetVersion: number;
  /** Starts at 1; one more for each accepted update or publish. */
  version: ColumnType<number, number | undefined, number>;
  /** jsonb: each module's control type id and, unless token creation supplies them, its params. */
  modules: ColumnType<ComplianceTemplateModule[], string, string>;
  /** Control type ids (each one of the modules') that a token created from the template must keep. */
  requiredControls: ColumnType<string[], string[] | undefined, string[]>;
  createdBy: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

// A type alias, not an interface: withTables wants an index signature.
export type ComplianceTemplatesTables = {
  complianceTemplates: ComplianceTemplatesTable;
};
export type ComplianceTemplateRow = Selectable<ComplianceTemplatesTable>;

export const templatesDb = (db: PlatformDb) => db.withTables<ComplianceTemplatesTables>();
