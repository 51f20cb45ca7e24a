// What the host and the worker both build from the running parts: databases, chain, custody, mutation kinds, the
// plugins' context and the worker's task list. The host process and a worker process each call this once.
import type { Task } from "graphile-worker";
import type { Hex } from "viem";
import { createChainService } from "../host/chain/chain-service.ts";
import type { Config } from "../host/config.ts";
import { loadMasterKey } from "../host/crypto/master-key.ts";
import { createCustody } from "../host/custody/custody.ts";
import { type Databases, openDatabases } from "../host/db/database.ts";
import { createIndexStatus } from "../host/index-status.ts";
import type { Logger } from "../host/logger.ts";
import { CONFIRM_TASK, createMutationService, RECONCILE_TASK, SEND_TASK } from "../host/mutations/service.ts";
import type { PluginContext } from "../host/plugin.ts";
import { createConfirmTransactionTask } from "../host/worker/confirm-transaction.ts";
import { createReconcileTask } from "../host/worker/reconcile.ts";
import { createSendTransactionTask } from "../host/worker/send-transaction.ts";
import { plugins } from "../plugins/index.ts";

export interface RunningParts {
  databaseUrl: string;
  rpcUrl: string;
  chainId: number;
  systemFactory: `0x${string}`;
  indexerUrl: string;
  /** The embedded chain's funder (deploys organisation systems); undefined on an external chain. */
  funderKey?: Hex;
}

/** Reconciliation runs every minute, once across every worker process (graphile-worker's crontab). */
export const CRONTAB = `* * * * * ${RECONCILE_TASK} ?jobKey=reconcile&jobKeyMode=preserve_run_at`;

export function createPlatformContext(
  config: Config,
  parts: RunningParts,
  logger: Logger,
  db: Databases = openDatabases(parts.databaseUrl, config.INDEX_VIEWS_SCHEMA),
) {
  const chain = createChainService(parts.rpcUrl, parts.chainId);
  const index = createIndexStatus(parts.indexerUrl);
  const secrets = { masterKey: loadMasterKey(config) };
  const custody = createCustody(db.platform, secrets.masterKey);
  const mutations = createMutationService(db.platform, custody);
  const deployment = { systemFactory: parts.systemFactory, funderKey: parts.funderKey };
  const ctx: PluginContext = { config, db, chain, index, custody, mutations, logger, secrets, deployment };
  const txDeps = { db: db.platform, chain, custody, mutations, logger, config };
  const taskList: Record<string, Task> = {
    [SEND_TASK]: createSendTransactionTask(txDeps),
    [CONFIRM_TASK]: createConfirmTransactionTask(txDeps),
    [RECONCILE_TASK]: createReconcileTask(txDeps),
  };
  for (const plugin of plugins) {
    for (const [kind, definition] of Object.entries(plugin.mutationKinds ?? {})) mutations.kinds.set(kind, definition);
    for (const [name, task] of Object.entries(plugin.tasks?.(ctx) ?? {})) taskList[`${plugin.id}:${name}`] = task;
  }
  return { db, chain, index, ctx, taskList };
}
