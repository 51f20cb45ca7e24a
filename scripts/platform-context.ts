// What the host and the worker both build from the running parts: databases, chain, custody, mutation kinds, the
// plugins' context and the worker's task list. The host process and a worker process each call this once.
import type { Hex } from "viem";
import { createServedChains, type ServedChainParts } from "../host/chain/served-chains.ts";
import { type Config, loadConfig } from "../host/config.ts";
import { loadMasterKey } from "../host/crypto/master-key.ts";
import { createConfiguredCustody } from "../host/custody/custody-provider.ts";
import { type Databases, openDatabases } from "../host/db/database.ts";
import { createEmitter } from "../host/events/outbox.ts";
import { createIndexStatus } from "../host/index-status.ts";
import type { Logger } from "../host/logger.ts";
import type { RequestExecutor } from "../host/mutations/executors.ts";
import { CONFIRM_TASK, createMutationService, RECONCILE_TASK, SEND_TASK } from "../host/mutations/service.ts";
import { TRANSACTION_REQUEST_CHANNEL } from "../host/mutations/wait-for-terminal.ts";
import type { HostContext } from "../host/plugin.ts";
import { composePlugins, registerPlugins } from "../host/plugin-host.ts";
import { createConfirmTransactionTask } from "../host/worker/confirm-transaction.ts";
import type { DefinedTask } from "../host/worker/define-task.ts";
import { addKeyedJob } from "../host/worker/keyed-jobs.ts";
import { createReconcileTask } from "../host/worker/reconcile.ts";
import { createSendTransactionTask } from "../host/worker/send-transaction.ts";
import { createWatchFinalityTask, FINALITY_TASK } from "../host/worker/watch-finality.ts";
import { plugins } from "../plugins/index.ts";
import { loadPluginModules } from "./plugin-modules.ts";

export interface RunningParts {
  databaseUrl: string;
  /** Each served chain's node and the platform's contracts there, the primary chain first. */
  chains: ServedChainParts[];
  indexerUrl: string;
  /** The embedded chain's funder (deploys organisation systems); undefined on an external chain. */
  funderKey?: Hex;
}

/**
 * The plugins this platform runs, composed once per process (names checked for collisions, a colliding pair stops
 * the start) and registered: their error codes, permissions and revert rules join the host core's. plugins/index.ts
 * and the PLUGIN_MODULES names (read from the process's environment when it starts).
 */
export const composed = composePlugins([...plugins, ...(await loadPluginModules(process.env.PLUGIN_MODULES))]);
registerPlugins(composed);

/** The host core's and the composed plugins' settings from `env`, validated (an invalid one stops the start). */
export const loadPlatformConfig = (env: NodeJS.ProcessEnv): Config => loadConfig(env, composed.plugins);

/**
 * Cluster-wide schedules (graphile-worker's crontab, once across every worker process): the host's reconciliation
 * every minute, then the plugins' entries.
 */
export const CRONTAB = [
  `* * * * * ${RECONCILE_TASK} ?jobKey=reconcile&jobKeyMode=preserve_run_at`,
  ...composed.crontab,
].join("\n");

export function createPlatformContext(
  config: Config,
  parts: RunningParts,
  logger: Logger,
  db: Databases = openDatabases(parts.databaseUrl, config.INDEX_VIEWS_SCHEMA, config.DATABASE_POOL_SIZE),
) {
  const chains = createServedChains(parts.chains);
  const chain = chains.primary;
  const index = createIndexStatus(parts.indexerUrl);
  const secrets = { masterKey: loadMasterKey(config) };
  const custody = createConfiguredCustody(config, db.platform, secrets.masterKey);
  const executors = new Map<string, RequestExecutor>();
  const mutations = createMutationService(db.platform, custody, executors, db.listen(TRANSACTION_REQUEST_CHANNEL));
  const deployment = { funderKey: parts.funderKey };
  const ctx: HostContext = {
    config,
    db,
    chains,
    index,
    custody,
    mutations,
    logger,
    secrets,
    deployment,
    async addJob(task, payload, options = {}) {
      await addKeyedJob(db.platform, { task, payload, ...options });
    },
    emit: createEmitter(db.platform, composed.webhookEvents),
    webhookEvents: composed.webhookEvents,
    executors,
  };
  composed.provideServices(ctx);
  const txDeps = { db: db.platform, chains, custody, mutations, logger, config, webhookEvents: composed.webhookEvents };
  const taskList: Record<string, DefinedTask> = {
    [SEND_TASK]: createSendTransactionTask(txDeps),
    [CONFIRM_TASK]: createConfirmTransactionTask(txDeps),
    [RECONCILE_TASK]: createReconcileTask(txDeps),
    [FINALITY_TASK]: createWatchFinalityTask(txDeps),
  };
  for (const [kind, definition] of composed.mutationKinds) mutations.kinds.set(kind, definition);
  Object.assign(taskList, composed.tasks(ctx));
  return { db, chains, chain, index, ctx, taskList };
}
