// The usual acceptance's write in one statement (one round trip on one pooled connection, committed when it returns,
// shared with the writes that queued for a connection meanwhile: host/db/combined-writes.ts): an operation without
// paymaster or factory (no sponsorship limit, no ERC-7562 reputation to count) that neither replaces a live operation
// of its sender and nonce nor was sent before, while its sender has room in the mempool. It takes the sender's lock
// first, as the full acceptance does (a sender's acceptances count its room in turn), counts its live rows as
// committed, and inserts nothing when the sender is a live operation's paymaster or factory (STO-040); when it
// inserts nothing, the full acceptance decides (and refuses). The statement is a function (bundler migrations 0010,
// restated without row locks by 0012, and 0011).
//
// It runs while the operation's validation does (mempool.ts). If the validation has passed by the time the write holds
// a connection (under load it waits for one), the row is written accepted at once. Otherwise it is written
// `accepting`, which no bundle takes (nor any of its sender's operations), and is then either marked accepted or
// withdrawn with the validation's refusal. One a stopped process left accepting is validated again by a later
// bundling run (accepting.ts).
import { type Insertable, sql } from "kysely";
import type pg from "pg";
import { combinedWrites } from "../../host/db/combined-writes.ts";
import { unflushedCommit } from "../../host/db/unflushed-commit.ts";
import type { CodeHashes } from "./code-hashes.ts";
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

/** What the validation running beside the write has settled when the write holds its connection. */
export type ValidationSoFar =
  /** Passed, and the operation needs nothing the full acceptance does: the row is written accepted. */
  | { accepted: true; visitedCode?: CodeHashes }
  /** Still running (or refused, or the full acceptance decides): the row is written accepting. */
  | { accepted: false };

/** An operation for the one-statement write, with what its validation has settled, asked once the write holds its
 * connection; `accepting` records what was written. */
interface QuickWrite {
  row: NewOperation;
  maxWaiting: number;
  soFar: () => ValidationSoFar;
  accepting: boolean;
}

/** An accepted mark: the row and the code hashes its validation saw (COD-010). */
interface Mark {
  userOpHash: string;
  visitedCode: CodeHashes | undefined;
}

const ascending = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The pool's combined writes (host/db/combined-writes.ts): a burst of acceptances shares statements and commits
 * instead of queueing one each for the pool's connections. */
const writesOf = new WeakMap<
  pg.Pool,
  { insert: (write: QuickWrite) => Promise<unknown>; mark: (mark: Mark) => Promise<unknown> }
>();

function combinedOf(db: BundlerDb, pool: pg.Pool) {
  let writes = writesOf.get(pool);
  if (!writes) {
    writes = {
      insert: combinedWrites<QuickWrite>(pool, {
        name: "bundler.insert-unless-contended",
        // One lock order for every batch: the function takes each row's sender lock in turn, held to the commit.
        order: (a, b) => ascending(a.row.sender, b.row.sender),
        statement: (writes) => {
          const codeHashes = writes.map((write) => {
            const validation = write.soFar();
            write.accepting = !validation.accepted;
            return validation.accepted && validation.visitedCode ? JSON.stringify(validation.visitedCode) : null;
          });
          const column = <K extends keyof NewOperation>(key: K) => writes.map((write) => write.row[key]);
          // The function runs row by row in the arrays' order.
          return sql<{ inserted: boolean }>`select platform.bundler_insert_unless_contended(r.user_op_hash,
              r.chain_id, r.entry_point, r.sender, r.nonce, r.organization_id, r.user_operation, r.packed_operation,
              r.max_fee_per_gas, r.max_priority_fee_per_gas, r.max_waiting, r.accepting, r.code_hashes) as inserted
            from unnest(${column("userOpHash")}::text[], ${column("chainId")}::integer[], ${column("entryPoint")}::text[],
              ${column("sender")}::text[], ${column("nonce")}::numeric[], ${column("organizationId")}::text[],
              ${column("userOperation")}::jsonb[], ${column("packedOperation")}::jsonb[],
              ${column("maxFeePerGas")}::numeric[], ${column("maxPriorityFeePerGas")}::numeric[],
              ${writes.map((write) => write.maxWaiting)}::integer[], ${writes.map((write) => write.accepting)}::boolean[],
              ${codeHashes}::jsonb[])
              as r(user_op_hash, chain_id, entry_point, sender, nonce, organization_id, user_operation,
                packed_operation, max_fee_per_gas, max_priority_fee_per_gas, max_waiting, accepting, code_hashes)`.compile(
            db,
          );
        },
      }),
      mark: combinedWrites<Mark>(pool, {
        name: "bundler.mark-accepted",
        order: (a, b) => ascending(a.userOpHash, b.userOpHash),
        statement: (marks) =>
          sql`update platform.bundler_user_operations as o
            set accepting = false, validation_code_hashes = m.code_hashes, updated_at = now()
            from unnest(${marks.map((mark) => mark.userOpHash)}::text[],
              ${marks.map((mark) => (mark.visitedCode ? JSON.stringify(mark.visitedCode) : null))}::jsonb[])
              as m(user_op_hash, code_hashes),
              ${unflushedCommit} as unflushed
            where o.user_op_hash = m.user_op_hash and o.accepting`.compile(db),
      }),
    };
    writesOf.set(pool, writes);
  }
  return writes;
}

/**
 * Whether the operation's row was inserted (pending), and whether still `accepting`: a call of the function migration
 * 0011 made, which takes the sender's lock (so that concurrent acceptances of one sender count their room in turn) and
 * then inserts the row unless it is contended. `soFar` is asked once the write holds a connection.
 */
export async function insertUnlessContended(
  db: BundlerDb,
  pool: pg.Pool,
  row: NewOperation,
  maxWaiting: number,
  soFar: () => ValidationSoFar,
): Promise<{ inserted: boolean; accepting: boolean }> {
  const write: QuickWrite = { row, maxWaiting, soFar, accepting: true };
  const result = (await combinedOf(db, pool).insert(write)) as { inserted: boolean } | undefined;
  return { inserted: result?.inserted === true, accepting: write.accepting };
}

/**
 * The accepting row's validation passed: bundles may take it (with the code hashes it saw, COD-010). Committed
 * without waiting for the disk (synchronous_commit off, this transaction only): the row itself is already durable, and
 * a mark a crash loses only leaves it accepting, which a later bundling run validates again (accepting.ts).
 */
export async function markAccepted(
  db: BundlerDb,
  pool: pg.Pool,
  userOpHash: string,
  visitedCode?: CodeHashes,
): Promise<void> {
  await combinedOf(db, pool).mark({ userOpHash, visitedCode });
}

/** The accepting row's validation refused it (or it needs the full acceptance): it leaves the mempool. */
export async function withdrawAccepting(db: BundlerDb, userOpHash: string): Promise<void> {
  await sql`delete from platform.bundler_user_operations
    where user_op_hash = ${userOpHash} and accepting and status = 'pending'`.execute(db);
}
