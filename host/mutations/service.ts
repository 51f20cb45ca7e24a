// Chain writes: a route submits one, a worker job executes it, the caller follows its transaction request.
import type { Transaction } from "kysely";
import { v7 as uuidv7 } from "uuid";
import type { Address, Hex, TransactionReceipt } from "viem";
import { z } from "zod";
import type { TransactionSpeed } from "../chain/transaction-speed.ts";
import { assertCustodyMaySign } from "../custody/activation-gate.ts";
import type { Custody } from "../custody/custody.ts";
import { predecessorRequest } from "../custody/key-move.ts";
import { resolveSigner } from "../custody/wallet-selection.ts";
import type { PlatformDb } from "../db/database.ts";
import type { ChannelListener } from "../db/notifications.ts";
import type { PlatformTables, TransactionRequestRow, WalletSelection } from "../db/platform-types.ts";
import { ApiError } from "../errors/api-error.ts";
import { addKeyedJob, type FoldableJob, foldIntoKeyedJobSql, type KeyedJob } from "../worker/keyed-jobs.ts";
import { describeCall } from "./describe.ts";
import type { RequestExecutor } from "./executors.ts";
import { attachToExisting } from "./idempotency.ts";
import { waitForTerminalRequest } from "./wait-for-terminal.ts";

export const SEND_TASK = "host:send-transaction";
export const CONFIRM_TASK = "host:confirm-transaction";
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

/** The payload of a signer's send and confirmation runs (both tasks parse it with this schema). */
export const SignerRunPayload = z.object({ chainId: z.number().int(), fromAddress: z.string() });
export type SignerRun = z.output<typeof SignerRunPayload>;

/**
 * The one send job of a signer: keyed per (chain, signer), so any number of submissions fold into one pending run
 * that sends all their queued writes in order; the queue of the same name keeps two runs from overlapping.
 */
export function sendJobSpec(chainId: number, from: string): FoldableJob<SignerRun> {
  const name = signerQueue(chainId, from);
  return {
    task: SEND_TASK,
    payload: { chainId, fromAddress: from.toLowerCase() },
    queueName: name,
    jobKey: `send:${name}`,
  };
}

/**
 * The one confirmation run of a signer: polls every broadcast write of it until each has its outcome. Its own queue
 * keeps two runs of a signer from overlapping (two would race to sign a write anew), apart from its send runs.
 */
export function confirmJobSpec(chainId: number, from: string): KeyedJob<SignerRun> {
  const name = `confirm:${signerQueue(chainId, from)}`;
  return { task: CONFIRM_TASK, payload: { chainId, fromAddress: from.toLowerCase() }, queueName: name, jobKey: name };
}

function signerQueue(chainId: number, from: string): string {
  return `signer:${chainId}:${from.toLowerCase()}`;
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
      const from = (input.from ?? (await custody.primaryAddress(input.organizationId))).toLowerCase();
      await assertCustodyMaySign(db, custody, {
        organizationId: input.organizationId,
        from,
        kind: input.kind,
        data: input.data,
        value: input.value ?? 0n,
      });
      const id = uuidv7();
      const executor = input.executor ?? "eoa";
      const walletSelection = input.walletSelection ?? {};
      // An EOA's send run, or the job of the executor mode that sends for this sender (a smart wallet's).
      const executorMode = executor === "eoa" ? undefined : executors.get(executor);
      if (executor !== "eoa" && !executorMode)
        throw new ApiError("REQUEST_EXECUTOR_UNAVAILABLE", { details: { executor } });
      const job = executorMode ? executorMode.sendJob(input.chainId, from) : sendJobSpec(input.chainId, from);
      const incoming = {
        kind: input.kind,
        executor,
        walletSelection,
        to: input.to,
        data: input.data,
        value: input.value ?? 0n,
        payloadIgnored: kind.idempotencyIgnoresPayload,
      };
      if (input.idempotencyKey !== undefined) {
        // The key's first use may be a key this one replaced when the organisation moved to the HSM.
        const earlier = await predecessorRequest(db, {
          from,
          chainId: input.chainId,
          idempotencyKey: input.idempotencyKey,
        });
        if (earlier) return { ...attachToExisting(earlier, incoming), replayed: true };
      }
      // One statement inserts the request and folds it into its signer's pending send run, or adds one: never a
      // request without a run to pick it up, and concurrent submissions of a signer do not queue on the run's job row.
      const row = await db
        .with("inserted", (q) =>
          q
            .insertInto("transactionRequests")
            .values({
              id,
              organizationId: input.organizationId,
              kind: input.kind,
              status: "QUEUED",
              subStatus: null,
              chainId: input.chainId,
              fromAddress: from,
              toAddress: input.to.toLowerCase(),
              data: input.data,
              value: (input.value ?? 0n).toString(),
              createdBy: input.createdBy,
              idempotencyKey: input.idempotencyKey ?? null,
              description: input.description ?? describeCall(input.kind, input.to, input.data),
              executor,
              walletSelection: JSON.stringify(walletSelection),
              gasLimit: input.gas?.toString() ?? null,
              ...(input.speed !== undefined ? { speed: input.speed } : {}),
              wakeJob: input.wakeJob ? JSON.stringify(input.wakeJob) : null,
              resultContext: input.resultContext ? JSON.stringify(input.resultContext) : null,
            })
            .onConflict((oc) =>
              oc
                .columns(["fromAddress", "chainId", "idempotencyKey"])
                .where("idempotencyKey", "is not", null)
                .doNothing(),
            )
            .returningAll(),
        )
        .selectFrom("inserted")
        .selectAll()
        .select(foldIntoKeyedJobSql(job).as("sendJobId"))
        .executeTakeFirst();
      if (row) {
        const { sendJobId, ...request } = row;
        if (sendJobId === null) await addKeyedJob(db, job); // a run took the job before this request was committed
        return { ...(request as TransactionRequestRow), replayed: false };
      }
      // The key was used before by this sender on this chain: attach to that request, or refuse (409).
      const existing = await db
        .selectFrom("transactionRequests")
        .selectAll()
        .where("fromAddress", "=", from)
        .where("chainId", "=", input.chainId)
        .where("idempotencyKey", "=", input.idempotencyKey!)
        .executeTakeFirstOrThrow();
      const attached = attachToExisting(existing, incoming);
      return { ...attached, replayed: true };
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
