// Idempotency-Key: one operation per sender, chain and key for 24 hours. Whether a repeat attaches to the first
// request or is refused (the spec's 409 cases) is decided here, from the stored request alone.
import { v7 as uuidv7 } from "uuid";
import type { TransactionRequestRow, WalletSelection } from "../db/platform-types.ts";
import { ApiError } from "../errors/api-error.ts";

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The response header marking an answer replayed for a repeated Idempotency-Key. */
export const IDEMPOTENT_REPLAYED = "Idempotent-Replayed";
const KEY = /^[\x21-\x7e]{1,255}$/; // printable ASCII, no spaces

/** The caller's key, or a server-generated UUIDv7 that the response echoes. */
export function effectiveIdempotencyKey(header: string | undefined): string {
  if (header === undefined) return uuidv7();
  if (!KEY.test(header))
    throw new ApiError("BAD_REQUEST", { message: "Idempotency-Key must be 1 to 255 printable ASCII characters" });
  return header;
}

function sameSelection(a: WalletSelection, b: WalletSelection): boolean {
  return (
    (a.accountWalletId ?? null) === (b.accountWalletId ?? null) &&
    (a.smartWalletAddress?.toLowerCase() ?? null) === (b.smartWalletAddress?.toLowerCase() ?? null) &&
    (a.forceEoa ?? false) === (b.forceEoa ?? false)
  );
}

/** What a repeat submits, compared with the stored request. */
export interface IncomingWrite {
  kind: string;
  executor: string;
  walletSelection: WalletSelection;
  /** The call exactly as submitted: another target, calldata or value is another instruction. */
  to: string;
  data: string;
  value: bigint;
  /** The spec's token-creation rule: the payload is not the deduplication boundary (see MutationKind). */
  payloadIgnored?: boolean;
}

function sameCall(existing: TransactionRequestRow, incoming: IncomingWrite): boolean {
  return (
    existing.toAddress.toLowerCase() === incoming.to.toLowerCase() &&
    existing.data.toLowerCase() === incoming.data.toLowerCase() &&
    BigInt(existing.value) === incoming.value
  );
}

/**
 * A repeat of `existing` (same sender, chain and key): returns it to attach to, or throws the matching 409.
 * The instruction (kind, and unless the kind ignores it the call: target, calldata, value), executor mode and
 * wallet selection are the deduplication boundary, so a key never answers another instruction's result.
 */
export function attachToExisting(
  existing: TransactionRequestRow,
  incoming: IncomingWrite,
  now = Date.now(),
): TransactionRequestRow {
  const details = { transactionId: existing.id, status: existing.status };
  if (now - new Date(existing.createdAt).getTime() > IDEMPOTENCY_WINDOW_MS)
    throw new ApiError("IDEMPOTENCY_KEY_EXPIRED", { details });
  if (existing.kind !== incoming.kind || existing.executor !== incoming.executor)
    throw new ApiError("IDEMPOTENCY_KEY_REUSED", { details });
  if (!incoming.payloadIgnored && !sameCall(existing, incoming)) {
    throw new ApiError("IDEMPOTENCY_KEY_REUSED", {
      message: "This key was first used for another instruction: another contract, operation or arguments.",
      details,
    });
  }
  if (!sameSelection(existing.walletSelection, incoming.walletSelection)) {
    throw new ApiError("IDEMPOTENCY_WALLET_SELECTION_MISMATCH", {
      details: { ...details, walletSelection: existing.walletSelection },
    });
  }
  if (existing.status === "CANCELLED") throw new ApiError("IDEMPOTENCY_REQUEST_CANCELLED", { details });
  if (existing.status === "DEAD_LETTER") throw new ApiError("IDEMPOTENCY_REQUEST_UNRECOVERABLE", { details });
  return existing;
}
