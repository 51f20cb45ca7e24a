// The usual acceptance's write in one statement (one round trip on one pooled connection, committed when it returns;
// a burst's in one statement together):
// an operation without paymaster or factory (no sponsorship limit, no ERC-7562 reputation to count) that neither
// replaces a live operation of its sender and nonce nor was sent before, while its sender has room in the mempool.
// It locks the sender's live rows as the full acceptance does, and inserts nothing when the sender is a live
// operation's paymaster or factory (STO-040); when it inserts nothing, the full acceptance decides (and refuses).
//
// It runs while the operation's validation does (mempool.ts): the row is written `accepting`, which no bundle takes
// (nor any of its sender's operations), and is then either marked accepted or withdrawn with the validation's
// refusal. One a stopped process left accepting is validated again by a later bundling run (accepting.ts).
import { type Insertable, sql } from "kysely";
import type pg from "pg";
import { batchedWrites } from "../../host/db/batched-writes.ts";
import { runPrepared } from "../../host/db/prepared-statement.ts";
import { unflushedCommit } from "../../host/db/unflushed-commit.ts";
import type { CodeHashes } from "./code-hashes.ts";
import { senderEntityOverlap } from "./sender-entity-rule.ts";
import type { BundlerDb, BundlerUserOperationsTable } from "./tables.ts";

/** The columns the one-statement write sets (the rest take their defaults: no paymaster, factory or bundle). */
export type NewOperation = Pick<
  Insertable<BundlerUserOperationsTable>,
  | "userOpHash"
  | "chainId"
  | "entryPoint"
  | "sender"
  | "nonce"
  | "organizationId"
  | "userOperation"
  | "packedOperation"
  | "maxFeePerGas"
  | "maxPriorityFeePerGas"
>;

/** Each pool's quick inserts per chain, EntryPoint and sender room, sent together (host/db/batched-writes.ts). */
const inserters = new WeakMap<pg.Pool, Map<string, (row: NewOperation) => Promise<boolean>>>();

/**
 * Whether the operation's row was inserted (pending, accepting). The rows asked for while one statement runs go in
 * the next, one per sender (each judged against its sender's live rows, which a batch-mate of the same sender would
 * not be among): one prepared statement over unnest() of the rows, committed once.
 */
export function insertUnlessContended(
  db: BundlerDb,
  pool: pg.Pool,
  row: NewOperation,
  maxWaiting: number,
): Promise<boolean> {
  const byScope = inserters.get(pool) ?? new Map<string, (row: NewOperation) => Promise<boolean>>();
  inserters.set(pool, byScope);
  const scope = { chainId: row.chainId, entryPoint: row.entryPoint };
  const key = `${scope.chainId}:${scope.entryPoint}:${maxWaiting}`;
  let insert = byScope.get(key);
  if (!insert) {
    insert = batchedWrites(
      async (rows: NewOperation[]) => {
        const column = <K extends keyof NewOperation>(name: K) => rows.map((r) => r[name]);
        const statement = sql`
          with input as (
            select * from unnest(${column("userOpHash")}::text[], ${column("sender")}::text[],
              ${column("nonce")}::numeric[], ${column("organizationId")}::text[], ${column("userOperation")}::jsonb[],
              ${column("packedOperation")}::jsonb[], ${column("maxFeePerGas")}::numeric[],
              ${column("maxPriorityFeePerGas")}::numeric[])
              as i(user_op_hash, sender, nonce, organization_id, user_operation, packed_operation, max_fee_per_gas,
                max_priority_fee_per_gas)
          ),
          live as (
            select o.user_op_hash, o.nonce, o.status, o.sender from platform.bundler_user_operations as o
            join input as i on o.sender = i.sender
            where o.chain_id = ${scope.chainId} and o.entry_point = ${scope.entryPoint}
              and (o.status in ('pending', 'submitted') or o.user_op_hash = i.user_op_hash)
            for update of o
          )
          insert into platform.bundler_user_operations (user_op_hash, chain_id, entry_point, sender, nonce,
            organization_id, user_operation, packed_operation, max_fee_per_gas, max_priority_fee_per_gas, status,
            accepting)
          select i.user_op_hash, ${scope.chainId}::integer, ${scope.entryPoint}, i.sender, i.nonce, i.organization_id,
            i.user_operation, i.packed_operation, i.max_fee_per_gas, i.max_priority_fee_per_gas, 'pending', true
          from input as i
          where not exists (select 1 from live as l
                            where l.sender = i.sender and (l.user_op_hash = i.user_op_hash or l.nonce = i.nonce))
            and (select count(*) from live as l where l.sender = i.sender and l.status = 'pending') < ${maxWaiting}
            and not ${senderEntityOverlap(scope, sql.ref<string>("i.sender"), [])}
          on conflict do nothing
          returning user_op_hash`;
        const inserted = await runPrepared(pool, "bundler.insert-unless-contended", statement.compile(db));
        const hashes = new Set(inserted.map((r) => (r as { user_op_hash: string }).user_op_hash));
        return rows.map((r) => hashes.has(r.userOpHash));
      },
      { keyOf: (r) => r.sender },
    );
    byScope.set(key, insert);
  }
  return insert(row);
}

/** Each pool's pending accepted marks, sent together (host/db/batched-writes.ts): a burst's acceptances end close. */
const markers = new WeakMap<pg.Pool, (mark: { userOpHash: string; codeHashes: string | null }) => Promise<void>>();

/**
 * The accepting row's validation passed: bundles may take it (with the code hashes it saw, COD-010). Committed
 * without waiting for the disk (synchronous_commit off, this transaction only): the row itself is already durable, and
 * a mark a crash loses only leaves it accepting, which a later bundling run validates again (accepting.ts). The marks
 * asked for while one is written go in one statement.
 */
export function markAccepted(
  db: BundlerDb,
  pool: pg.Pool,
  userOpHash: string,
  visitedCode?: CodeHashes,
): Promise<void> {
  let mark = markers.get(pool);
  if (!mark) {
    mark = batchedWrites(async (marks) => {
      const statement = sql`update platform.bundler_user_operations as o
        set accepting = false, validation_code_hashes = m.code_hashes
        from ${unflushedCommit} as unflushed,
          unnest(${marks.map((m) => m.userOpHash)}::text[], ${marks.map((m) => m.codeHashes)}::jsonb[])
            as m(user_op_hash, code_hashes)
        where o.user_op_hash = m.user_op_hash and o.accepting`;
      await runPrepared(pool, "bundler.mark-accepted", statement.compile(db));
      return marks.map(() => undefined);
    });
    markers.set(pool, mark);
  }
  return mark({ userOpHash, codeHashes: visitedCode ? JSON.stringify(visitedCode) : null });
}

/** The accepting row's validation refused it (or it needs the full acceptance): it leaves the mempool. */
export async function withdrawAccepting(db: BundlerDb, userOpHash: string): Promise<void> {
  await sql`delete from platform.bundler_user_operations
    where user_op_hash = ${userOpHash} and accepting and status = 'pending'`.execute(db);
}
