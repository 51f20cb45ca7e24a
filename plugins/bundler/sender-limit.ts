// ERC-7562's limit on an unstaked sender's operations in the mempool. Only the operations still waiting count: those a
// bundle transaction carries have left the mempool (Alto counts the same way), so a sender whose bundle is already
// mined, but not yet confirmed here, is not refused its next operation.

/** An unstaked sender's operations the mempool holds at most. */
export const MAX_PENDING_PER_SENDER = 4;

/** How many of a sender's rows are still waiting for a bundle. */
export function waitingCount(rows: readonly { status: string }[]): number {
  return rows.filter((row) => row.status === "pending").length;
}
