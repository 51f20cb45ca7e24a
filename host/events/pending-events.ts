// `pending` events: recorded in the transaction that stores a write's signed bytes, just before they are broadcast
// (host/worker/send-transaction.ts), so a pending event always exists before the write can be mined and indexed.
// Each provisional type whose `fromIndex.pending` names the write's kind predicts what the write will produce.
import type { Kysely } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { PlatformTables } from "../db/platform-types.ts";
import type { BroadcastWrite, WebhookEventType } from "../plugin.ts";
import { recordEventsOnce } from "./outbox.ts";

export interface SignedWrite extends BroadcastWrite {
  requestId: string;
  organizationId: string;
  idempotencyKey: string | null;
}

/** The pending outbox rows of the writes (none for a kind no type predicts, or a prediction its schema refuses). */
export function pendingRows(events: ReadonlyMap<string, WebhookEventType>, writes: readonly SignedWrite[]) {
  const predicting = [...events].filter(([, event]) => event.fromIndex?.pending && event.lifecycle === "provisional");
  if (predicting.length === 0) return [];
  return writes.flatMap((write) =>
    predicting.flatMap(([type, event]) => {
      const source = event.fromIndex!.pending!;
      if (!source.kinds.includes(write.kind)) return [];
      return source.predict(write).flatMap(({ payload, related }, i) => {
        const parsed = event.payload.safeParse(payload);
        if (!parsed.success) return [];
        return [
          {
            id: `evt_${uuidv7()}`,
            organizationId: write.organizationId,
            type,
            payload: JSON.stringify(parsed.data),
            related: JSON.stringify(related),
            idempotencyKey: write.idempotencyKey,
            requestId: write.requestId,
            chainId: write.chainId,
            transactionHash: write.transactionHash.toLowerCase(),
            lifecycleState: "pending",
            // Once per write and predicted event, whatever hash a fee bump broadcasts it under later.
            dedupeKey: `pending:${type}:${write.requestId}:${i}`,
          },
        ];
      });
    }),
  );
}

/** Records the writes' pending events in the caller's transaction. */
export async function recordPendingEvents(
  trx: Kysely<PlatformTables>,
  events: ReadonlyMap<string, WebhookEventType>,
  writes: readonly SignedWrite[],
): Promise<void> {
  await recordEventsOnce(trx, pendingRows(events, writes));
}
