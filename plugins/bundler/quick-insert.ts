// The usual acceptance's write in one statement (one round trip on one pooled connection, committed when it returns):
// an operation without paymaster or factory (no sponsorship limit, no ERC-7562 reputation to count) that neither
// replaces a live operation of its sender and nonce nor was sent before, while its sender has room in the mempool.
// It takes the sender's lock first, as the full acceptance does (a sender's acceptances count its room in turn), locks
// its live rows, and inserts nothing when the sender is a live operation's paymaster or factory (STO-040); when it
// inserts nothing, the full acceptance decides (and refuses). The statement is a function (bundler migrations 0010
// and 0011).
//
// It runs while the operation's validation does (mempool.ts). If the validation has passed by the time the write holds
// a connection (under load it waits for one), the row is written accepted at once. Otherwise it is written
// `accepting`, which no bundle takes (nor any of its sender's operations), and is then either marked accepted or
// withdrawn with the validation's refusal. One a stopped process left accepting is validated again by a later
// bundling run (accepting.ts).
import { type Insertable, sql } from "kysely";
import type pg from "pg";
import { runPrepared } from "../../host/db/prepared-statement.ts";
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

/**
 * Whether the operation's row was inserted (pending), and whether still `accepting`: one prepared call of the function
 * migration 0011 made, which takes the sender's lock (so that concurrent acceptances of one sender count their room
 * in turn) and then inserts the row unless it is contended. `soFar` is asked once a connection is held.
 */
export async function insertUnlessContended(
  db: BundlerDb,
  pool: pg.Pool,
  row: NewOperation,
  maxWaiting: number,
  soFar: () => ValidationSoFar,
): Promise<{ inserted: boolean; accepting: boolean }> {
  let accepting = true;
  const statement = () => {
    const validation = soFar();
    accepting = !validation.accepted;
    const codeHashes = validation.accepted && validation.visitedCode ? JSON.stringify(validation.visitedCode) : null;
    return sql<{ inserted: boolean }>`select platform.bundler_insert_unless_contended(${row.userOpHash},
      ${row.chainId}::integer, ${row.entryPoint}, ${row.sender}, ${row.nonce}::numeric, ${row.organizationId},
      ${row.userOperation}::jsonb, ${row.packedOperation}::jsonb, ${row.maxFeePerGas}::numeric,
      ${row.maxPriorityFeePerGas}::numeric, ${maxWaiting}::integer, ${accepting}::boolean,
      ${codeHashes}::jsonb) as inserted`.compile(db);
  };
  const [result] = (await runPrepared(pool, "bundler.insert-unless-contended", statement)) as { inserted: boolean }[];
  return { inserted: result?.inserted === true, accepting };
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
  const statement = sql`update platform.bundler_user_operations
    set accepting = false, validation_code_hashes = ${visitedCode ? JSON.stringify(visitedCode) : null}::jsonb
    from ${unflushedCommit} as unflushed
    where user_op_hash = ${userOpHash} and accepting`;
  await runPrepared(pool, "bundler.mark-accepted", statement.compile(db));
}

/** The accepting row's validation refused it (or it needs the full acceptance): it leaves the mempool. */
export async function withdrawAccepting(db: BundlerDb, userOpHash: string): Promise<void> {
  await sql`delete from platform.bundler_user_operations
    where user_op_hash = ${userOpHash} and accepting and status = 'pending'`.execute(db);
}
