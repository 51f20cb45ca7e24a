// The plugin's tables (migrations.ts) as Kysely types, and the platform db widened with them.
import type { ColumnType, Selectable } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface ExampleNotesTable {
  id: string;
  organizationId: string;
  text: string;
  /** Written by the count-words task, null until it ran. */
  wordCount: ColumnType<number | null, number | null | undefined, number | null>;
  createdBy: string;
  createdAt: Timestamp;
}

export interface ExampleNoteDigestsTable {
  /** The period the cron entry ran for (graphile-worker's `_cron.ts`). */
  scheduledAt: Date | string;
  notes: number;
  /** The worker process that ran it. */
  pid: number;
  createdAt: Timestamp;
}

// A type alias, not an interface: withTables wants an index signature.
export type ExampleTables = {
  exampleNotes: ExampleNotesTable;
  exampleNoteDigests: ExampleNoteDigestsTable;
};
export type ExampleNoteRow = Selectable<ExampleNotesTable>;

export const exampleDb = (db: PlatformDb) => db.withTables<ExampleTables>();
