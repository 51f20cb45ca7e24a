// A retry with an idempotency key its sender used before on the chain: the earlier request, when the retry asks for
// the same write (else 409 IDEMPOTENCY_KEY_REUSED, see idempotency.ts).
import { predecessorRequest } from "../custody/key-move.ts";
import type { PlatformDb } from "../db/database.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { attachToExisting } from "./idempotency.ts";
import type { RequestSender } from "./request-values.ts";
import type { MutationKind, SubmitInput } from "./service.ts";

/** The write a retry asks for, as attachToExisting compares it with the earlier request's. */
function incomingWrite(input: SubmitInput, sender: RequestSender, kind: MutationKind) {
  return {
    kind: input.kind,
    executor: sender.executor,
    walletSelection: sender.walletSelection,
    to: input.to,
    data: input.data,
    value: input.value ?? 0n,
    payloadIgnored: kind.idempotencyIgnoresPayload,
  };
}

export async function earlierRequest(
  db: PlatformDb,
  input: SubmitInput,
  sender: RequestSender,
  kind: MutationKind,
): Promise<TransactionRequestRow> {
  const existing = await db
    .selectFrom("transactionRequests")
    .selectAll()
    .where("fromAddress", "=", sender.from)
    .where("chainId", "=", input.chainId)
    .where("idempotencyKey", "=", input.idempotencyKey!)
    .executeTakeFirstOrThrow();
  return attachToExisting(existing, incomingWrite(input, sender, kind));
}

/**
 * A retry whose key was first used by a key the sender replaced (its organisation moved to the HSM,
 * host/custody/key-move.ts): that request, else undefined. Without it the new key would sign the write again.
 */
export async function replacedKeyRequest(
  db: PlatformDb,
  input: SubmitInput,
  sender: RequestSender,
  kind: MutationKind,
): Promise<TransactionRequestRow | undefined> {
  if (input.idempotencyKey === undefined) return undefined;
  const earlier = await predecessorRequest(db, {
    from: sender.from,
    chainId: input.chainId,
    idempotencyKey: input.idempotencyKey,
  });
  return earlier ? attachToExisting(earlier, incomingWrite(input, sender, kind)) : undefined;
}
