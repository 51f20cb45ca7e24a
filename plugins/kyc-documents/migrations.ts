// The plugin's schema, in order; each step runs once (platform.plugin_migrations records it). Add a step, never edit
// an applied one.
import { type Kysely, sql } from "kysely";
import type { PluginMigration } from "../../host/plugin.ts";

export const migrations: PluginMigration[] = [
  {
    name: "0001_kyc_documents",
    async up(db: Kysely<unknown>) {
      await db.schema
        .withSchema("platform")
        .createTable("kyc_documents")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organization_id", "text", (c) => c.notNull().references("platform.organizations.id"))
        // A participant id as the directory gives it (a user, the organisation, or a lowercase contract address).
        .addColumn("participant_id", "text", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("claim_topic", "text")
        .addColumn("file_name", "text")
        .addColumn("content_type", "text", (c) => c.notNull())
        .addColumn("size", "integer", (c) => c.notNull())
        .addColumn("sha256", "text", (c) => c.notNull())
        .addColumn("uploaded_by", "text", (c) => c.notNull())
        .addColumn("uploaded_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await sql`create index kyc_documents_participant on platform.kyc_documents
        (organization_id, participant_id, uploaded_at desc, id desc)`.execute(db);
      // A claim names its evidence by hash.
      await sql`create index kyc_documents_sha256 on platform.kyc_documents (organization_id, sha256)`.execute(db);
    },
  },
];
