// The X-Transaction-Speed header of a chain write (host/chain/transaction-speed.ts): absent is `standard`.
import { DEFAULT_TRANSACTION_SPEED, TRANSACTION_SPEEDS, TransactionSpeed } from "../chain/transaction-speed.ts";
import { badRequest } from "../errors/api-error.ts";

export function parseTransactionSpeed(header: string | undefined): TransactionSpeed {
  if (header === undefined) return DEFAULT_TRANSACTION_SPEED;
  const parsed = TransactionSpeed.safeParse(header.trim());
  if (parsed.success) return parsed.data;
  const allowed = TRANSACTION_SPEEDS.join(", ");
  throw badRequest(`X-Transaction-Speed must be one of ${allowed}`, [
    { path: "X-Transaction-Speed", message: `one of ${allowed}` },
  ]);
}
