// The shared request headers (the spec's context headers, Idempotency-Key, Prefer and X-Transaction-Speed), defined
// once as `components.parameters` and referenced by the operations they apply to: every authenticated write takes the
// context headers (the host validates them before any route runs), every chain write also Idempotency-Key, Prefer and
// X-Transaction-Speed.
import { DEFAULT_TRANSACTION_SPEED, SPEED_PERCENTILES, TRANSACTION_SPEEDS } from "../chain/transaction-speed.ts";
import { IDEMPOTENCY_WINDOW_MS } from "../mutations/idempotency.ts";
import { byOperationKind, type DocumentOperation, type OperationMethod } from "./document-operations.ts";

type HeaderParameter = {
  name: string;
  in: "header";
  required: false;
  description: string;
  schema: Record<string, unknown>;
  examples?: Record<string, { summary: string; value: string }>;
};

const WINDOW_HOURS = IDEMPOTENCY_WINDOW_MS / 3_600_000;

/** By component name. */
export const SHARED_HEADERS = {
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      `Makes the write safe to retry: the same sender, chain and key within ${WINDOW_HOURS} hours is one operation. ` +
      "A repeat while the first is active attaches to it; after it completed, the recorded result is returned " +
      "(200). The same key for another instruction, executor or wallet selection, or older than the window, answers " +
      "409 (IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_WALLET_SELECTION_MISMATCH, IDEMPOTENCY_KEY_EXPIRED). Without the header the platform generates a " +
      "UUIDv7; either way the response echoes the effective key in `Idempotency-Key`.",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" },
    examples: { uuid: { summary: "A client-generated UUID", value: "0190f7a4-5b1e-7c3d-9a2b-1c2d3e4f5a6b" } },
  },
  Prefer: {
    name: "Prefer",
    in: "header",
    required: false,
    description:
      "RFC 7240 preferences. `wait=N` (N whole seconds from 5 to 99) waits for the operation to finish and answers " +
      "200 with the completed result (504 REQUEST_DEADLINE_EXCEEDED when it does not finish in time: it may still " +
      "run). `respond-async, wait=N` waits and then degrades to 202. Without it the write answers 202 at once. An " +
      "honoured `respond-async` is echoed in `Preference-Applied`. `handling=strict` (any request that reads the " +
      "index) opts in to 503 INDEXER_REINDEXING with Retry-After at once, instead of waiting up to 5 s for an index " +
      "that is catching up after a start (echoed in `Preference-Applied` on that 503).",
    schema: {
      type: "string",
      pattern:
        "^\\s*(respond-async|wait=\\d+|handling=strict)(\\s*,\\s*(respond-async|wait=\\d+|handling=strict))*\\s*$",
    },
    examples: {
      wait: { summary: "Wait up to 30 s for the result", value: "wait=30" },
      respondAsync: { summary: "Wait up to 10 s, then answer 202", value: "respond-async, wait=10" },
    },
  },
  XTransactionSpeed: {
    name: "X-Transaction-Speed",
    in: "header",
    required: false,
    description:
      "How much the write bids to be mined, from the chain's recent priority fees (eth_feeHistory over the last " +
      `blocks): \`slow\` pays their ${SPEED_PERCENTILES.slow}th percentile, \`standard\` the median, \`fast\` the ` +
      `${SPEED_PERCENTILES.fast}th, each with a floor (0.1, 1 and 2 gwei) and at least 12.5% under the next faster one, ` +
      "so slow < standard < fast; the max fee adds twice the next block's base fee. Default: " +
      `\`${DEFAULT_TRANSACTION_SPEED}\`. Kept on the transaction request (\`speed\`); a stuck write's fee bump raises ` +
      "from its speed's current fees. Anything else answers 400 BAD_REQUEST before anything is queued.",
    schema: { type: "string", enum: [...TRANSACTION_SPEEDS], default: DEFAULT_TRANSACTION_SPEED },
  },
  XChainId: {
    name: "X-Chain-Id",
    in: "header",
    required: false,
    description:
      "The chain to work on, as a decimal chain id; default: the organisation's default network. A chain the " +
      "platform does not serve for the organisation answers 400 CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION.",
    schema: { type: "string", pattern: "^[1-9][0-9]{0,15}$", example: "31337" },
  },
  XParticipant: {
    name: "X-Participant",
    in: "header",
    required: false,
    description:
      "The participant (user id) to act as; default: the caller. Acting for another member needs the " +
      "participant:act-for-others permission (403 REQUEST_PARTICIPANT_FORBIDDEN otherwise).",
    schema: { type: "string", minLength: 1, maxLength: 64 },
  },
  XExecutor: {
    name: "X-Executor",
    in: "header",
    required: false,
    description:
      "Who sends chain writes: `eoa` (the organisation's custody wallets) or `smart-wallet` (the participant's " +
      "ERC-4337 smart wallet); default: the organisation's executor policy. Anything else answers 400 " +
      "INVALID_REQUEST_EXECUTOR; smart-wallet where it is disabled answers 403.",
    schema: { type: "string", enum: ["eoa", "smart-wallet"] },
  },
} as const satisfies Record<string, HeaderParameter>;

type SharedHeaderName = keyof typeof SHARED_HEADERS;

const CONTEXT_HEADERS: SharedHeaderName[] = ["XChainId", "XParticipant", "XExecutor"];
const CHAIN_WRITE_HEADERS: SharedHeaderName[] = ["IdempotencyKey", "Prefer", "XTransactionSpeed", ...CONTEXT_HEADERS];

const refTo = (name: SharedHeaderName) => ({ $ref: `#/components/parameters/${name}` });

const BY_HEADER = new Map(
  (Object.keys(SHARED_HEADERS) as SharedHeaderName[]).map((name) => [SHARED_HEADERS[name].name.toLowerCase(), name]),
);

type Parameter = { $ref?: string; name?: string; in?: string };

/**
 * The shared headers the operation takes: its own header parameters of those names become references, and the ones
 * its kind of write takes are added (after its path and query parameters).
 */
export function withSharedHeaders(method: OperationMethod, operation: DocumentOperation): void {
  const wanted = new Set<SharedHeaderName>(
    byOperationKind(method, operation, {
      chainWrite: CHAIN_WRITE_HEADERS,
      authenticatedWrite: CONTEXT_HEADERS,
      other: [],
    }),
  );
  const parameters = ((operation.parameters ?? []) as Parameter[]).filter((parameter) => {
    const shared = parameter.in === "header" ? BY_HEADER.get(String(parameter.name).toLowerCase()) : undefined;
    if (shared) wanted.add(shared);
    return !shared;
  });
  for (const name of CHAIN_WRITE_HEADERS) if (wanted.has(name)) parameters.push(refTo(name));
  if (parameters.length) operation.parameters = parameters as DocumentOperation["parameters"];
}
