// Signs a batch and stores every signed transaction and the signer's next nonce in one database transaction. The
// first nonce is the node's pending count unless our reservation above it is still held (next-nonce.ts: a reorg
// frees it). Each write pays its speed's fees (X-Transaction-Speed), read once for the batch.
import { type Kysely, sql, type Transaction } from "kysely";
import { type Address, type Hex, keccak256 } from "viem";
import { transactionTypeOf } from "../chain/authorizations.ts";
import { speedFees } from "../chain/fee-history.ts";
import type { PlatformTables, TransactionRequestRow } from "../db/platform-types.ts";
import { recordPendingEvents } from "../events/pending-events.ts";
import type { ChainTaskDeps } from "./deps.ts";
import { nextNonce } from "./next-nonce.ts";
import { planNonces } from "./send-plan.ts";

/**
 * Locks, of `ids`, the rows still QUEUED and unsigned until the signing transaction commits: a request cancelled
 * since the run read it is skipped (and takes no nonce), and a cancel that comes later finds it signed (409).
 */
async function lockSignable(trx: Transaction<PlatformTables>, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await trx
    .selectFrom("transactionRequests")
    .select("id")
    .where("id", "in", ids)
    .where("status", "=", "QUEUED")
    .where("rawTransaction", "is", null)
    .forUpdate()
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** The signed bytes of each write signed, by request id. */
export async function signBatch(
  { db, chain, custody, webhookEvents }: Pick<ChainTaskDeps, "db" | "chain" | "custody" | "webhookEvents">,
  rows: TransactionRequestRow[],
  gas: Map<string, bigint>,
  signer: { chainId: number; fromAddress: string },
): Promise<Map<string, Hex>> {
  const { chainId, fromAddress } = signer;
  const [fees, pending] = await Promise.all([
    speedFees(chain.client),
    chain.client.getTransactionCount({ address: fromAddress as Address, blockTag: "pending" }),
  ]);
  return db.transaction().execute(async (trx) => {
    const reserved = await trx
      .selectFrom("signerNonces")
      .select("nextNonce")
      .where("chainId", "=", chainId)
      .where("address", "=", fromAddress)
      .forUpdate()
      .executeTakeFirst();
    const first = await nextNonce(trx, chain, { chainId, fromAddress, reserved: reserved?.nextNonce ?? 0, pending });
    const plan = planNonces(rows, gas, await lockSignable(trx, [...gas.keys()]), first);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const signed = new Map<string, Hex>();
    for (const { id, gas: limit, nonce } of plan.planned) {
      const row = byId.get(id)!;
      const account = await custody.signer(row.organizationId, row.fromAddress as Address, {
        requestId: row.id,
        caller: "worker:send-transaction",
      });
      const raw = await account.signTransaction({
        chainId: chain.chainId,
        ...transactionTypeOf(row.authorizationList),
        to: row.toAddress as Address,
        data: row.data as Hex,
        value: BigInt(row.value),
        gas: limit,
        nonce,
        ...fees[row.speed],
      });
      signed.set(id, raw);
    }
    if (signed.size > 0) {
      // Every signed write of the batch in one statement. Each hash once: a bundle's bytes are kilobytes to keccak.
      const planned = plan.planned.filter((p) => signed.has(p.id));
      const ids = planned.map((p) => p.id);
      const hashes = new Map(ids.map((id) => [id, keccak256(signed.get(id)!)]));
      await sql`update platform.transaction_requests as r
        set raw_transaction = s.raw, transaction_hash = s.hash, nonce = s.nonce, sub_status = 'SIGNED', updated_at = now()
        from unnest(${ids}::text[], ${ids.map((id) => signed.get(id))}::text[],
                    ${ids.map((id) => hashes.get(id))}::text[], ${planned.map((p) => p.nonce)}::int[])
             as s(id, raw, hash, nonce)
        where r.id = s.id`.execute(trx as unknown as Kysely<unknown>);
      if (webhookEvents) {
        // Told before the bytes go out: a pending event always precedes what the index tells of the write.
        const writes = planned.map(({ id }) => {
          const { organizationId, idempotencyKey, kind, toAddress, data } = byId.get(id)!;
          const transactionHash = hashes.get(id)!;
          return {
            requestId: id,
            organizationId,
            idempotencyKey,
            kind,
            chainId,
            fromAddress,
            toAddress,
            data,
            transactionHash,
          };
        });
        await recordPendingEvents(trx, webhookEvents, writes);
      }
    }
    await trx
      .insertInto("signerNonces")
      .values({ chainId, address: fromAddress, nextNonce: plan.next })
      .onConflict((oc) => oc.columns(["chainId", "address"]).doUpdateSet({ nextNonce: plan.next }))
      .execute();
    return signed;
  });
}
