// Chain writes: a route submits one, a worker job executes it, the caller follows its transaction request.
import type { Transaction } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { Address, Hex, TransactionReceipt } from "viem";
import type { StoredAuthorization } from "../chain/authorizations.ts";
import type { TransactionSpeed } from "../chain/transaction-speed.ts";
import { assertCustodyMaySign } from "../custody/activation-gate.ts";
import type { Custody } from "../custody/custody.ts";
import { resolveSigner } from "../custody/wallet-selection.ts";
import type { PlatformDb } from "../db/database.ts";
import type { ChannelListener } from "../db/notifications.ts";
import type { PlatformTables, TransactionRequestRow, WalletSelection } from "../db/platform-types.ts";
import type { KeyedJob } from "../worker/keyed-jobs.ts";
import { earlierRequest, replacedKeyRequest } from "./earlier-request.ts";
import type { RequestExecutor } from "./executors.ts";
import { queueRequest } from "./queue-request.ts";
import { requestValues } from "./request-values.ts";
import { sendJobFor } from "./send-job.ts";
import { waitForTerminalRequest } from "./wait-for-terminal.ts";

export {
  CONFIRM_TASK,
  confirmJobSpec,
  SEND_TASK,
  type SignerRun,
  SignerRunPayload,
  sendJobSpec,
} from "./signer-jobs.ts";
export const RECONCILE_TASK = "host:reconcile";
export { TERMINAL_STATES } from "./wait-for-terminal.ts";

export interface MutationKind {
  /**
   * A retry with the same Idempotency-Key attaches even when its call (target, calldata, value) differs: the spec's
   * token-creation rule ("the token payload itself is not the deduplication boundary"). Otherwise a different call
   * is 409 IDEMPOTENCY_KEY_REUSED.
   */
  idempotencyIgnoresPayload?: boolean;
  /** What the caller reads in the request's `result` once mined, e.g. the created token's address. */
  result?: (receipt: TransactionReceipt, request: TransactionRequestRow) => Record<string, unknown>;
  /** Platform records to write in the same database transaction that marks the request COMPLETED. */
  onCompleted?: (
    trx: Transaction<PlatformTables>,
    request: TransactionRequestRow,
    result: Record<string, unknown>,
  ) => Promise<void>;
}

export interface SubmitInput {
  organizationId: string;
  chainId: number;
  kind: string;
  to: Address;
  data: Hex;
  value?: bigint;
  createdBy: string;
  /** Defaults to the organisation's primary custody EOA. */
  from?: Address;
  /** The spec's deduplication key (with sender and chain); internal writes may omit it. */
  idempotencyKey?: string;
  executor?: "eoa" | "smart-wallet";
  walletSelection?: WalletSelection;
  /** How much the write bids to be mined (X-Transaction-Speed); default standard. */
  speed?: TransactionSpeed;
  /** The transaction's gas, when the sender knows it: signed as given, not estimated (nor refused by estimation). */
  gas?: bigint;
  /**
   * EIP-7702 authorisations the transaction carries: it is signed as a type-4 transaction with this list, which the
   * request keeps (a signing after a crash sends the same list). Needs `gas`: such a write is not estimated.
   */
  authorizationList?: readonly StoredAuthorization[];
  /** A human summary, e.g. "Mint 1,500.5 EURD to 0x7099…79C8"; by default the kind and the decoded call, abridged. */
  description?: string;
  /**
   * What the route knew and the receipt cannot say (e.g. a claim topic's name beside its id), merged into the
   * request's `result` once mined; the kind's own result wins on a name both give.
   */
  resultContext?: Record<string, unknown>;
  /**
   * A job queued (in the same transaction) when the request ends, whatever its outcome: a multi-step job's next run
   * (migration 0027's trigger), so it need not hold a worker slot waiting.
   */
  wakeJob?: Pick<KeyedJob<object>, "task" | "payload" | "queueName" | "jobKey">;
}

/** A submitted request; `replayed`: the earlier request of the same sender, chain and key, not a new one. */
export type SubmittedRequest = TransactionRequestRow & { replayed: boolean };

export interface MutationService {
  kinds: Map<string, MutationKind>;
  /** The wallet that signs an organisation's request (host/custody/wallet-selection.ts), without handing out custody. */
  signerFor(input: Omit<Parameters<typeof resolveSigner>[2], "executors">): Promise<Address>;
  /** Queues a write, or returns the earlier request with the same sender, chain and key (or throws its 409). */
  submit(input: SubmitInput): Promise<SubmittedRequest>;
  find(organizationId: string, transactionId: string): Promise<TransactionRequestRow | undefined>;
  /**
   * The request once it is terminal (COMPLETED, FAILED, CANCELLED, DEAD_LETTER), or as it stands at `deadline`
   * (epoch ms); woken by its change's NOTIFY, not by polling. Undefined when the organisation has no such request.
   */
  waitForTerminal(
    organizationId: string,
    transactionId: string,
    deadline: number,
  ): Promise<TransactionRequestRow | undefined>;
  /**
   * Marks the request CANCELLED while it is QUEUED and unsigned; returns its row as it then stands (CANCELLED, or
   * the state that kept it from being cancelled), or undefined when the organisation has no such request.
   */
  cancel(organizationId: string, transactionId: string): Promise<TransactionRequestRow | undefined>;
}

export function createMutationService(
  db: PlatformDb,
  custody: Custody,
  executors: ReadonlyMap<string, RequestExecutor>,
  /** The listener on TRANSACTION_REQUEST_CHANNEL (Databases.listen). */
  requestChanges: ChannelListener,
): MutationService {
  const kinds = new Map<string, MutationKind>();
  return {
    kinds,
    signerFor: (input) => resolveSigner(db, custody, { ...input, executors }),
    async submit(input) {
      const kind = kinds.get(input.kind);
      if (!kind) throw new Error(`Unknown mutation kind ${input.kind}`);
      if (input.authorizationList?.length && input.gas === undefined)
        throw new Error("A write with an authorisation list gives its gas (it is not estimated)");
      const from = (input.from ?? (await custody.primaryAddress(input.organizationId))).toLowerCase();
      await assertCustodyMaySign(db, custody, {
        organizationId: input.organizationId,
        from,
        kind: input.kind,
        data: input.data,
        value: input.value ?? 0n,
      });
      const executor = input.executor ?? "eoa";
      const sender = { id: uuidv7(), from, executor, walletSelection: input.walletSelection ?? {} };
      const moved = await replacedKeyRequest(db, input, sender, kind);
      if (moved) return { ...moved, replayed: true };
      const job = sendJobFor(executors, executor, input.chainId, from);
      const queued = await queueRequest(db, requestValues(input, sender), job);
      if (queued) return { ...queued, replayed: false };
      // The key was used before by this sender on this chain: attach to that request, or refuse (409).
      return { ...(await earlierRequest(db, input, sender, kind)), replayed: true };
    },
    waitForTerminal(organizationId, transactionId, deadline) {
      const find = () => this.find(organizationId, transactionId);
      return waitForTerminalRequest(requestChanges, find, transactionId, deadline);
    },
    async find(organizationId, transactionId) {
      return db
        .selectFrom("transactionRequests")
        .selectAll()
        .where("id", "=", transactionId)
        .where("organizationId", "=", organizationId)
        .executeTakeFirst();
    },
    async cancel(organizationId, transactionId) {
      // Signed bytes may already be on the wire and hold a nonce, so only an unsigned write can be cancelled. The
      // send run signs only rows it locked in this state (send-transaction.ts): whichever commits first wins.
      const cancelled = await db
        .updateTable("transactionRequests")
        .set({ status: "CANCELLED", subStatus: "CANCELLED_BY_USER", updatedAt: new Date() })
        .where("id", "=", transactionId)
        .where("organizationId", "=", organizationId)
        .where("status", "in", ["QUEUED", "PENDING_APPROVAL"]) // an operation waiting for co-signers is unsigned
        .where("rawTransaction", "is", null)
        .returningAll()
        .executeTakeFirst();
      return cancelled ?? this.find(organizationId, transactionId);
    },
  };
}
