// Topic scheme coverage: the system's active topics that no active claim on the chain carries. Claims count by chain
// and topic id, not by registry: another system's active claim on the same topic id covers it too (as the spec says).
import { sql } from "kysely";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";

export async function topicCoverage(db: LedgerDb, system: string, chainId: number) {
  const schemes = await db
    .selectFrom("topicScheme as s")
    .where("s.system", "=", indexedHex(system))
    .where("s.active", "=", true)
    .select((eb) => [
      "s.topicId",
      "s.name",
      "s.signature",
      eb
        .exists(
          eb
            .selectFrom("identityClaim as c")
            .select(sql`1`.as("one"))
            .where("c.chainId", "=", chainId)
            .whereRef("c.topic", "=", "s.topicId")
            .where("c.status", "=", "active"),
        )
        .as("covered"),
    ])
    .orderBy("s.name")
    .execute();
  return { totalActiveTopicSchemes: schemes.length, missing: schemes.filter((scheme) => !scheme.covered) };
}
