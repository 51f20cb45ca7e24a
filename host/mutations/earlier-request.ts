// A retry with an idempotency key its sender used before on the chain: the earlier request, when the retry asks for
// the same write (else 409 IDEMPOTENCY_KEY_REUSED, see idempotency.ts).
import type { PlatformDb } from "../db/database.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { attachToExisting } from "./idempotency.ts";
import type { RequestSender } from "./request-values.ts";
import type { MutationKind, SubmitInput } from "./service.ts";

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
  return attachToExisting(existing, {
    kind: input.kind,
    executor: sender.executor,
    walletSelection: sender.walletSelection,
    to: input.to,
    data: input.data,
    value: input.value ?? 0n,
    payloadIgnored: kind.idempotencyIgnoresPayload,
  });
}
