// The one way to wait for a transaction request's outcome: woken by the NOTIFY its row's change sends (migration
// 0027), from whichever process made it.

import type { ChannelListener } from "../db/notifications.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { waitForChange } from "../db/wait-for-change.ts";

export const TRANSACTION_REQUEST_CHANNEL = "transaction_request_changed";

/** Where a request ends: it changes no more (a reorg aside). */
export const TERMINAL_STATES: ReadonlySet<string> = new Set(["COMPLETED", "FAILED", "DEAD_LETTER", "CANCELLED"]);

export function waitForTerminalRequest(
  changes: ChannelListener,
  find: () => Promise<TransactionRequestRow | undefined>,
  transactionId: string,
  deadline: number,
): Promise<TransactionRequestRow | undefined> {
  return waitForChange({
    listener: changes,
    key: transactionId,
    read: find,
    done: (row) => !row || TERMINAL_STATES.has(row.status),
    deadline,
  });
}
