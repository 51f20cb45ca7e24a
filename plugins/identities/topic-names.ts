// One representation of a claim topic in every answer: its id as a decimal string, its scheme's name beside it.
import { z } from "@hono/zod-openapi";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";

export const TopicRefSchema = z
  .object({
    topicId: z.string().openapi({ description: "Topic id, decimal (uint256(keccak256(name)))", example: "1" }),
    name: z.string().nullable().openapi({ description: "The topic scheme's name; null when the system has none" }),
  })
  .openapi("ClaimTopic");

/** The names the system's topic scheme registry gives `topics` (removed schemes keep their name). */
export async function topicNames(db: LedgerDb, system: string, topics: readonly bigint[]) {
  const names = new Map<string, string>();
  if (topics.length === 0) return names;
  const rows = await db
    .selectFrom("topicScheme")
    .select(["topicId", "name"])
    .where("system", "=", indexedHex(system))
    .where("topicId", "in", [...new Set(topics)])
    .execute();
  for (const row of rows) names.set(row.topicId.toString(), row.name);
  return names;
}

export function topicRef(names: ReadonlyMap<string, string>, topic: bigint): z.infer<typeof TopicRefSchema> {
  const topicId = topic.toString();
  return { topicId, name: names.get(topicId) ?? null };
}

/** A claim's topic name for a write's result (SubmitInput.resultContext): the one the caller gave, else the index's. */
export async function topicNameContext(db: LedgerDb, system: string, topic: bigint, given?: string) {
  return { topicName: given ?? (await topicNames(db, system, [topic])).get(topic.toString()) ?? null };
}
