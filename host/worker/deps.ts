// What the transaction tasks need from the host.
import type { ServedChain, ServedChains } from "../chain/served-chains.ts";
import type { Config } from "../config.ts";
import type { Custody } from "../custody/custody.ts";
import type { PlatformDb } from "../db/database.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import type { Logger } from "../logger.ts";
import type { MutationService } from "../mutations/service.ts";
import type { WebhookEventType } from "../plugin.ts";
import type { TaskRun } from "./define-task.ts";

export interface TransactionTaskDeps {
  db: PlatformDb;
  chains: ServedChains;
  custody: Custody;
  mutations: MutationService;
  logger: Logger;
  /** Every declared webhook event type: a write's broadcast tells the `pending` ones it predicts. */
  webhookEvents?: ReadonlyMap<string, WebhookEventType>;
  config: Pick<
    Config,
    | "RECEIPT_TIMEOUT_SECONDS"
    | "RECONCILE_AFTER_SECONDS"
    | "RECONCILE_RETRY_BUDGET"
    | "STUCK_TRANSACTION_SECONDS"
    | "FEE_BUMP_LIMIT"
    | "chains"
    | "WEBHOOK_REORG_DEPTH"
    | "CUSTODY_ACTIVATION_WAIT_SECONDS"
  >;
}

/** The deps of a run on one chain. */
export interface ChainTaskDeps extends TransactionTaskDeps {
  chain: ServedChain;
}

/** A task whose every run works on the chain its payload names (`chainId`): one `create` per served chain. */
export function perChainTask<P extends { chainId: number }>(
  deps: TransactionTaskDeps,
  create: (deps: ChainTaskDeps) => TaskRun<P>,
): TaskRun<P> {
  const tasks = new Map<number, TaskRun<P>>();
  return (payload, helpers) => {
    const { chainId } = payload;
    let task = tasks.get(chainId);
    if (!task) {
      task = create({ ...deps, chain: deps.chains.get(chainId) });
      tasks.set(chainId, task);
    }
    return task(payload, helpers);
  };
}

/** `whileStatus`: only while the request is still in that state (e.g. a cancelled request stays CANCELLED). */
export async function updateRequest(
  db: PlatformDb,
  id: string,
  values: Partial<TransactionRequestRow>,
  whileStatus?: string,
) {
  let update = db
    .updateTable("transactionRequests")
    .set({ ...values, updatedAt: new Date() } as never)
    .where("id", "=", id);
  if (whileStatus !== undefined) update = update.where("status", "=", whileStatus);
  await update.execute();
}

/** A broadcast the node already has, or that it already mined, is not an error for us. */
export function isAlreadyKnown(error: unknown): boolean {
  const text = String((error as Error)?.message ?? error).toLowerCase();
  return text.includes("already known") || text.includes("nonce too low") || text.includes("already imported");
}
