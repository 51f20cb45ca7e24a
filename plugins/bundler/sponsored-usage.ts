// A sender's sponsored operations in the last 24 hours (pending, in a bundle or included), read under a lock on the
// sender so that two operations sent at once cannot both pass the last free place.
import { sql } from "kysely";
import { SPONSORSHIP_WINDOW_MS, type SponsorshipUsage } from "./sponsorship-limits.ts";
import type { bundlerDb } from "./tables.ts";

type BundlerDb = ReturnType<typeof bundlerDb>;

/** Call inside the acceptance's transaction: the lock is held until it ends. */
export async function sponsoredUsage(
  trx: BundlerDb,
  chainId: number,
  sender: string,
  now: Date,
): Promise<SponsorshipUsage> {
  await sql`select pg_advisory_xact_lock(hashtext(${`bundler-sponsorship:${chainId}:${sender}`}))`.execute(trx);
  const row = await trx
    .selectFrom("bundlerUserOperations")
    .select((eb) => [
      eb.fn.countAll<string>().as("operations"),
      eb.fn.coalesce(eb.fn.sum<string>("maxCharge"), sql<string>`0`).as("wei"),
      eb.fn.min("createdAt").as("oldest"),
    ])
    .where("chainId", "=", chainId)
    .where("sender", "=", sender)
    .where("paymaster", "is not", null)
    .where("status", "in", ["pending", "submitted", "included"])
    .where("createdAt", ">", new Date(now.getTime() - SPONSORSHIP_WINDOW_MS))
    .executeTakeFirstOrThrow();
  return {
    operations: Number(row.operations),
    wei: BigInt(row.wei),
    oldest: row.oldest ? new Date(row.oldest as unknown as string) : null,
  };
}
