// The plugin contract: a plugin is a value the host composes (host/plugin-host.ts). Each part below is merged by
// the host from the plugins it is given; names are checked for collisions when the platform starts. A plugin
// never imports another plugin: it asks the host (a task name for addJob, an event, a domain/ function).

import type { Kysely, Transaction } from "kysely";
import type { ZodObject, ZodType, z } from "zod";
import type { Role } from "./auth/permissions.ts";
import type {
  Capabilities,
  CapabilityName,
  HostCapabilityName,
  HostKeySetting,
  PluginCapabilityName,
} from "./capabilities.ts";
import type { ServedChains } from "./chain/served-chains.ts";
import type { Config } from "./config.ts";
import type { Databases, LedgerDb } from "./db/database.ts";
import type { PlatformTables } from "./db/platform-types.ts";
import type { ErrorDefinition } from "./errors/registry.ts";
import type { App } from "./http/env.ts";
import type { IndexStatus } from "./index-status.ts";
import type { Logger } from "./logger.ts";
import type { RequestExecutor } from "./mutations/executors.ts";
import type { RevertRule } from "./mutations/revert-errors.ts";
import type { MutationKind, MutationService } from "./mutations/service.ts";
import type { DefinedTask } from "./worker/define-task.ts";

export interface AddJobOptions {
  /** Folds repeats into one pending job (graphile-worker's job key). */
  jobKey?: string;
  /** Jobs of one queue run one at a time. */
  queueName?: string;
  runAt?: Date;
  maxAttempts?: number;
}

export interface EmitOptions<DB extends PlatformTables = PlatformTables> {
  /** The organisation whose subscribers receive the event. */
  organizationId: string;
  /** Ids the event concerns (e.g. `{ token: "0x…", transactionId: "…" }`), for filtering and tracing. */
  related?: Record<string, string>;
  /**
   * The API request's idempotency key (the envelope's `request.idempotency_key`). One event per type, key and
   * organisation: emitting again with the same key records nothing new.
   */
  idempotencyKey?: string;
  /**
   * The caller's own transaction on ctx.db.platform (a plugin's widened one too): the event is recorded if and only
   * if the caller's write commits.
   */
  trx?: Transaction<DB>;
}

/**
 * A plugin's settings: environment variables, each a zod schema with what it does (`.describe()` or `.meta()`),
 * composed into the validated configuration at start (host/config.ts) and documented in docs/configuration.md.
 */
export type PluginSettingsSchema = ZodObject;

/** The host core's settings as a plugin sees them: without the host's keys and other plugins' settings. */
export type PluginConfig = Omit<Config, HostKeySetting | "pluginSettings">;

/** What every plugin receives; custody, the secrets, the funder key and other plugins' capabilities only on request. */
export interface SharedContext {
  /** The host core's settings without the host's keys (HOST_KEY_SETTINGS); a plugin's own are `settings`. */
  config: PluginConfig;
  db: Databases;
  /** Every chain this platform serves; a request's own is requestChain(c, ctx) (host/chain/request-chain.ts). */
  chains: ServedChains;
  index: IndexStatus;
  mutations: MutationService;
  logger: Logger;
  /** Executor modes beyond `eoa` a plugin provides (`smart-wallet`), by name. */
  executors: ReadonlyMap<string, RequestExecutor>;
  /** Every webhook event type the composed plugins declare (the webhooks plugin's catalogue and subscriptions). */
  webhookEvents: ReadonlyMap<string, WebhookEventType>;
  /** Queues a graphile-worker job by its full task name `<plugin id>:<name>` (any plugin's task). */
  addJob(task: string, payload: Record<string, unknown>, options?: AddJobOptions): Promise<void>;
  /**
   * Records a webhook event in the outbox (the webhooks plugin delivers it). `type` must be declared by a plugin's
   * `webhookEvents`; the payload is validated against its schema.
   */
  emit<DB extends PlatformTables>(type: string, payload: unknown, options: EmitOptions<DB>): Promise<void>;
}

/** A plugin's context: the shared one and the capabilities `R` it requires (host/capabilities.ts), typed. */
export type PluginContext<R extends CapabilityName = never, Settings = unknown> = SharedContext &
  Pick<Capabilities, R> & {
    /** The plugin's own settings (its `settings` schema's output), validated when the platform starts. */
    settings: Settings;
  };

/** The host's own context: the shared one with custody, the secrets and the funder key; each plugin's is cut from it. */
export type HostContext = Omit<SharedContext, "config"> & { config: Config } & Pick<Capabilities, HostCapabilityName>;

/** A cluster-wide schedule: graphile-worker's crontab runs the task once per period across all worker processes. */
export interface CronEntry {
  /** The plugin's own task name (without the `<plugin id>:` prefix). */
  task: string;
  /** Five-field cron expression, UTC (graphile-worker's crontab: minute granularity). */
  schedule: string;
  payload?: Record<string, unknown>;
  /**
   * How far back a worker process that starts makes up the periods no worker ran (graphile-worker's `fill`, e.g.
   * "1h"), each once across the processes; periods still pending fold into one run (the entry's job key). Without
   * it, a period missed while no worker ran is skipped.
   */
  fill?: string;
}

/** A process-local schedule (node-cron), e.g. flushing in-memory counters; runs in every host process. */
export interface TimerEntry {
  name: string;
  /** node-cron expression (six fields allowed: seconds first). */
  schedule: string;
  run(): Promise<void>;
  /** Called once when the process stops (e.g. a last flush). */
  stop?(): Promise<void>;
}

/** One step of a plugin's own schema, run once in order (tracked per plugin in platform.plugin_migrations). */
export interface PluginMigration {
  /** Ordered within the plugin, e.g. `0001_templates`. */
  name: string;
  /**
   * The name under which the host's single migration list once ran this very step (e.g. `0008_compliance_templates`):
   * a database that ran it records this step as applied instead of running it again.
   */
  legacyName?: string;
  up(db: Kysely<unknown>): Promise<void>;
}

export interface WebhookEventType {
  description: string;
  /** The event's `payload` schema (its JSON Schema is published in the event catalogue and the AsyncAPI document). */
  payload: ZodType;
  /**
   * `provisional`: the whole lifecycle (host/events/lifecycle-rules.ts): `pending` when a platform write that will
   * produce it is broadcast (when `fromIndex.pending` predicts it), `provisional` when indexed inside the reorg depth,
   * then `final` past the depth or `retracted` if a reorg removes it. `final` (the default): told once past the
   * depth. A final event is `recalled` when a reorg deeper than the depth replaces its block.
   */
  lifecycle?: "provisional" | "final";
  /**
   * The `final` state is delivered again until the subscriber counter-signs a receipt (POST
   * /api/v2/webhooks/receipts), for endpoints that ask for receipts (`receiptRequired`).
   */
  receiptRequired?: boolean;
  /**
   * The event is read from the index, not emitted by code (host/events/index-lifecycle.ts): a provisional event
   * when the observation is indexed, a final one once it is deeper than the reorg depth.
   */
  fromIndex?: IndexedEventSource;
}

/** One indexed fact an event tells of (a transfer, a mint, a role revocation). */
export interface IndexedObservation {
  /**
   * The same for the same fact wherever a reorg puts it: the transaction hash and the log's position within its
   * transaction, not the block or the log's index in the block.
   */
  key: string;
  /** The system the fact belongs to: its organisation receives the event. */
  systemAddress: string;
  blockNumber: bigint;
  transactionHash: string;
  payload: unknown;
  /** Indexed reference ids (`idxr_*`). */
  related: Record<string, string>;
}

export interface IndexedEventSource {
  /** The observations of blocks `fromBlock`..`toBlock` (inclusive) of the served chain, read from the index views. */
  read(ledger: LedgerDb, range: { chainId: number; fromBlock: bigint; toBlock: bigint }): Promise<IndexedObservation[]>;
  /** What a platform write of the given kinds will produce, told `pending` when it is broadcast (provisional types). */
  pending?: PendingEventSource;
}

/** A platform write signed and about to be broadcast. */
export interface BroadcastWrite {
  chainId: number;
  kind: string;
  /** The signer (the transaction's `from`). */
  fromAddress: string;
  toAddress: string;
  data: string;
  transactionHash: string;
}

export interface PendingEventSource {
  /** The mutation kinds whose writes may produce the event. */
  kinds: readonly string[];
  /** The events the write will produce once mined, each a payload of the type's schema; none when it cannot tell. */
  predict(write: BroadcastWrite): { payload: unknown; related: Record<string, string> }[];
}

/** One finished request, as the host saw it (host/http/record-requests.ts); the observer redacts what it keeps. */
export interface RequestRecord {
  method: string;
  /** The path and query as received. */
  url: string;
  /** The matched route in the spec's form (`/api/v2/tokens/{tokenAddress}`); null when no route matched. */
  routeTemplate: string | null;
  /** `rpc` for /api/rpc/*, else `rest`. */
  requestType: "rest" | "rpc";
  statusCode: number;
  durationMs: number;
  requestedAt: Date;
  /** Absent when the request did not authenticate. */
  caller?: { kind: "api-key" | "session"; organizationId: string; userId: string; apiKeyId?: string };
  clientAddress: string;
  userAgent: string | null;
  /** The X-Request-Id the host answered with. */
  traceId: string;
  /** The request's Idempotency-Key, or the one the host generated and echoed. */
  idempotencyKey: string | null;
  /** Not redacted: credentials included. */
  requestHeaders: Headers;
  responseHeaders: Headers;
  /** The body the route read (a JSON value or text), undefined when none was read. Not redacted. */
  requestBody(): Promise<unknown>;
  /** The JSON value the host answered with (undefined for other bodies: streams, documents). Not redacted. */
  responseBody: unknown;
  /** Bytes, from Content-Length when the client sent one. */
  requestSize: number | null;
  /** Bytes of the JSON answer, else the response's Content-Length, else null (streams). */
  responseSize: number | null;
  /** For 4xx and 5xx: the error envelope's code and message, and its structured details (`data` / `error`). */
  failure?: { code: string | null; message: string | null; details: unknown };
}

/** Called once per finished request, after the response is built; must not throw or block (queue the work). */
export type RequestObserver = (record: RequestRecord) => void;

/** The context a plugin's parts receive: its capabilities and `ctx.settings` typed by its own settings schema. */
type Ctx<R extends CapabilityName, S extends PluginSettingsSchema> = PluginContext<R, z.output<S>>;

/**
 * A plugin's parts receive `PluginContext<R, z.output<S>>`: the capabilities it requires and its own settings
 * (what definePlugin checks; the host holds every plugin as `Plugin`).
 */
export interface Plugin<R extends CapabilityName = never, S extends PluginSettingsSchema = PluginSettingsSchema> {
  /** kebab-case; prefixes task names and logs. */
  id: string;
  /** The plugin's own environment variables (e.g. `plugins/bundler/settings.ts`), read into `ctx.settings`. */
  settings?: S;
  /**
   * Capabilities the plugin's parts receive on their context (host/capabilities.ts); the host refuses to start when
   * no loaded plugin provides one.
   */
  requires?: readonly R[];
  /** Capabilities the plugin builds for others, by name; once per process, after those it requires. */
  provides?: { [N in PluginCapabilityName]?: (ctx: Ctx<R, S>) => Capabilities[N] };
  /** Registers the plugin's routes on its own sub-app, which the host mounts (`app.route`). */
  routes?: (app: App, ctx: Ctx<R, S>) => void;
  /** Exact paths that need no credential (e.g. sign-in); every other /api path is authenticated. */
  publicPaths?: string[];
  /** graphile-worker tasks, registered as `<plugin id>:<name>`; each checks its payload (host/worker/define-task.ts). */
  tasks?: (ctx: Ctx<R, S>) => Record<string, DefinedTask>;
  /** Cluster-wide schedules of the plugin's own tasks. */
  crontab?: CronEntry[];
  /** Process-local schedules. */
  timers?: (ctx: Ctx<R, S>) => TimerEntry[];
  /** Sees every finished /api request of this host process (built once per host process). */
  requestObservers?: (ctx: Ctx<R, S>) => RequestObserver[];
  /** The plugin's tables, in order. */
  migrations?: PluginMigration[];
  /** Permissions the plugin's routes check, with the organisation roles that grant each. */
  permissions?: Record<string, readonly Role[]>;
  /** Error codes the plugin's routes answer with (code → status, SVC id, category, message, why, fix). */
  errors?: Record<string, ErrorDefinition>;
  /** Contract reverts (custom error names) that answer with one of the plugin's error codes. */
  revertErrors?: Record<string, RevertRule>;
  /** Webhook event types the plugin emits (`<noun>.<verb>`, e.g. `token.transfer.final`). */
  webhookEvents?: Record<string, WebhookEventType>;
  /** Executor modes the plugin provides (`X-Executor` values beyond `eoa`), built once per process. */
  executors?: Record<string, (ctx: Ctx<R, S>) => RequestExecutor>;
  /** Chain-write kinds (e.g. `token.create`): how to read a result from the receipt, what to record on completion. */
  mutationKinds?: Record<string, MutationKind>;
}

/** A plugin without settings of its own: its `ctx.settings` holds nothing. */
type NoSettings = ZodObject<Record<string, never>>;

/** `requires` types the capabilities on the plugin's context, `settings` its `ctx.settings`. */
export function definePlugin<const R extends CapabilityName = never, S extends PluginSettingsSchema = NoSettings>(
  plugin: Plugin<R, S>,
): Plugin {
  if (!/^[a-z][a-z0-9-]*$/.test(plugin.id)) throw new Error(`Plugin id "${plugin.id}" must be kebab-case`);
  // The host gives each part the context cut for `requires` and its settings (pluginContext in host/plugin-host.ts).
  return plugin as unknown as Plugin;
}
