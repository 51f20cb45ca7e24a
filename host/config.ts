// The configuration loader: the host core's settings (ConfigSchema) and each composed plugin's own (its `settings`
// schema, plugins/<name>/settings.ts), read from the environment and validated once at start. The only place of
// host/, plugins/, src/ and domain/ that reads process.env besides src/indexer-env.ts (scripts/no-env-reads.test.ts).
import { resolve } from "node:path";
import { z } from "zod";

const port = z.coerce.number().int().min(0).max(65535);
const hexKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "a 0x-prefixed 32-byte hex string");
/** How many processes of a kind to run. */
const processCount = z.coerce.number().int().min(1).max(16).default(1);
/** A `true`/`false` setting, read as a boolean. */
export const booleanSetting = (fallback: "true" | "false") =>
  z
    .enum(["true", "false"])
    .default(fallback)
    .transform((v) => v === "true");

/**
 * The host core's settings, each with what it does (`.describe()`) and, where the default shown is not the schema's own value,
 * `defaultText`: docs/configuration.md is generated from this (npm run build:docs).
 */
export const ConfigSchema = z.object({
  DATA_DIR: z
    .string()
    .default(".data")
    .describe(
      "Where the embedded database, chain state, deployment manifests, logs, credentials and the embedded custody " +
        "key live. Private: the folder, `logs/` and `run/` are 0700, their files 0600.",
    ),
  PORT: port.default(8080).describe("The API host's port (0 picks a free one)."),
  HOST: z.string().default("127.0.0.1").describe("The API host's listen address."),
  PUBLIC_BASE_URL: z
    .string()
    .url()
    .optional()
    .meta({ description: "The base URL written to `credentials.json`.", defaultText: "`http://HOST:PORT`" }),
  DATABASE_URL: z
    .string()
    .optional()
    .meta({
      description:
        "The PostgreSQL to use. Unset: an embedded server under `$DATA_DIR/postgres` (as root, a symlink to " +
        "`/var/lib/asset-platform/clusters/…`: see [operations](operations.md)). Behind a connection pooler, use " +
        "its session mode: the platform LISTENs, holds advisory locks and prepares hot statements per connection.",
      defaultText: "embedded",
    }),
  EMBEDDED_POSTGRES_PORT: port.default(54329).describe("The embedded PostgreSQL's port (loopback only)."),
  RPC_URL: z.string().url().optional().meta({
    description: "The chain's JSON-RPC URL. Unset: an embedded anvil under `$DATA_DIR/anvil`.",
    defaultText: "embedded",
  }),
  WS_URL: z
    .string()
    .url()
    .regex(/^wss?:\/\//, "a ws:// or wss:// URL")
    .optional()
    .meta({
      description:
        "The chain's WebSocket URL (`ws://`, `wss://`): the index follows new blocks over it (`eth_subscribe` " +
        "newHeads) instead of polling every `PONDER_POLLING_INTERVAL_MS`. Unset with `RPC_URL`: polled.",
      defaultText: "the embedded anvil's, when it mines while idle",
    }),
  CHAIN_ID: z.coerce.number().int().positive().optional().meta({
    description:
      "The expected chain id: checked against `RPC_URL`; the embedded anvil's chain id (then 31337 by default).",
    defaultText: "from the chain",
  }),
  ANVIL_PORT: port
    .default(8545)
    .describe("The embedded anvil's port (the i-th embedded chain listens on `ANVIL_PORT` + i)."),
  ANVIL_MINING: z
    .enum(["instant", "interval"])
    .default("instant")
    .describe(
      "How the embedded anvil mines. `interval`: a block every `ANVIL_BLOCK_TIME_SECONDS` holding what arrived, as " +
        "a real chain does, so a burst of writes fills a few blocks and the index keeps up. `instant`: each " +
        "transaction at once in a block of its own (the tests' chain: fastest for one write at a time; a burst of " +
        "400 writes is 400 blocks for the index to fetch).",
    ),
  ANVIL_BLOCK_TIME_SECONDS: z.coerce
    .number()
    .min(0)
    .max(3600)
    .default(0)
    .describe(
      "`interval`: the block time (fractions allowed, e.g. `0.25`). `instant`: also mine an empty block this often " +
        "(`0`: only for transactions), so an idle chain grows and indexed webhook events become final.",
    ),
  CHAINS: z
    .string()
    .optional()
    .describe(
      "Several external chains, a JSON list: " +
        '`[{"id": 1, "rpcUrl": "https://…", "wsUrl": "wss://…", "finalityDepth": 64, "deploymentManifest": "…", ' +
        '"indexRpcLanes": 1}]`; the first is the primary chain (new organisations\' default network). `wsUrl`, ' +
        "`finalityDepth` (default: `WEBHOOK_REORG_DEPTH`'s), `deploymentManifest` (default: deployed with " +
        "`DEPLOYER_PRIVATE_KEY`) and `indexRpcLanes` (1-32, default 1: Ponder paces each RPC URL from 20 requests a " +
        "second, so a node of your own that does not rate-limit may be given as that many lanes) are optional. " +
        "Replaces `RPC_URL`, `CHAIN_ID`, `WS_URL` and `DEPLOYMENT_MANIFEST` (giving both is refused at start).",
    ),
  EMBEDDED_CHAINS: z.coerce
    .number()
    .int()
    .min(1)
    .max(8)
    .default(1)
    .describe(
      "Without `RPC_URL` or `CHAINS`: how many embedded anvils, chain ids `CHAIN_ID` (31337) + i on ports " +
        "`ANVIL_PORT` + i; the first keeps its state under `$DATA_DIR/anvil`, the others under `$DATA_DIR/anvil-<chainId>`.",
    ),
  DEPLOYER_PRIVATE_KEY: hexKey.optional().meta({
    description:
      "Deploys the contracts and funds organisation signers; required with `RPC_URL` unless `DEPLOYMENT_MANIFEST` is given.",
    defaultText: "anvil's first account when embedded",
  }),
  DEPLOYMENT_MANIFEST: z.string().optional().meta({
    description: "The manifest of a prior deployment of the platform's contracts, used instead of deploying.",
    defaultText: "`$DATA_DIR/deployments/<chainId>.json`",
  }),
  PONDER_PORT: port.default(42069).describe("The indexer's HTTP port (health, readiness, status; loopback)."),
  PONDER_POLLING_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(250)
    .describe(
      "How often the indexer polls the chain for new blocks when it has no WebSocket (read by ponder.config.ts).",
    ),
  PONDER_LOG_LEVEL: z
    .enum(["silent", "error", "warn", "info", "debug", "trace"])
    .default("info")
    .describe("The indexer's log level (its log is `$DATA_DIR/logs/ponder.log`)."),
  PONDER_NODE_FLAGS: z
    .string()
    .optional()
    .describe(
      "Extra Node.js flags for the indexer's process, space-separated (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` " +
        "to profile it); it always runs with `--max-semi-space-size=128`.",
    ),
  INDEX_VIEWS_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,44}$/)
    .default("ledger")
    .describe(
      "The stable schema readers query (one per chain: `<name>_chain_<id>`); the indexer's own schema is named by its build's hash.",
    ),
  INDEX_REBUILD_KEY: z
    .string()
    .regex(/^[\x21-\x7E]{1,64}$/)
    .optional()
    .describe(
      "Any text mixed into the index build's hash: changing it re-indexes from block 0 into a new schema while the " +
        "current index keeps serving reads, as a changed handler does (docs/operations.md).",
    ),
  CUSTODY_MASTER_KEY: hexKey.optional().meta({
    description:
      "The 32-byte hex key that seals every custody seed and second-factor secret at rest (AES-256-GCM). Set it in production.",
    defaultText: "generated in `$DATA_DIR/custody-master.key`",
  }),
  CUSTODY_PROVIDER: z
    .enum(["software", "pkcs11"])
    .default("software")
    .describe(
      "Where organisations' signing keys live: `software` (a bip32 seed per organisation, sealed with " +
        "CUSTODY_MASTER_KEY) or `pkcs11` (keys generated inside an HSM's token, never leaving it; docs/custody.md).",
    ),
  PKCS11_MODULE: z.string().optional().meta({
    description: "The PKCS#11 module (shared library) of the HSM, with `CUSTODY_PROVIDER=pkcs11`.",
    defaultText: "SoftHSM2's `/usr/lib/softhsm/libsofthsm2.so` where installed",
  }),
  PKCS11_TOKEN_LABEL: z
    .string()
    .optional()
    .describe("The label of the HSM token holding the keys (required with `CUSTODY_PROVIDER=pkcs11`)."),
  PKCS11_USER_PIN: z
    .string()
    .optional()
    .describe("The token's user PIN (or PKCS11_USER_PIN_FILE; one is required with `CUSTODY_PROVIDER=pkcs11`)."),
  PKCS11_USER_PIN_FILE: z
    .string()
    .optional()
    .describe("A file holding the token's user PIN (its first line), instead of PKCS11_USER_PIN."),
  CUSTODY_ACTIVATION_QUORUM: z.coerce
    .number()
    .int()
    .min(1)
    .default(1)
    .describe(
      "With `CUSTODY_PROVIDER=pkcs11`: how many distinct custodians must approve before a custody partition signs " +
        "(M of N). With `software` a partition is always active.",
    ),
  CUSTODY_ACTIVATION_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(28_800)
    .describe("How long a custody partition stays active once its quorum is reached."),
  CUSTODY_ACTIVATION_WAIT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(3600)
    .describe(
      "How long a write waits (QUEUED, `AWAITING_CUSTODY_ACTIVATION`) for its custody partition's activation before " +
        "it fails with `HSM_MOFN_QUORUM_EXPIRED`.",
    ),
  ORG_FUNDING_WEI: z.coerce
    .bigint()
    .default(10n ** 20n)
    .describe("Gas money (wei) sent to an organisation's signer when it runs low (embedded and test chains)."),
  API_KEY_RATE_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .default(1200)
    .describe("Requests one API key may make in any window, across all host processes (then 429 with `Retry-After`)."),
  API_KEY_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60).describe("The per-key sliding window."),
  SIGN_IN_FREE_FAILURES: z.coerce
    .number()
    .int()
    .min(0)
    .default(5)
    .describe("Failed sign-ins (or second-factor codes) per account before lockouts start."),
  SIGN_IN_ADDRESS_FREE_FAILURES: z.coerce
    .number()
    .int()
    .min(0)
    .default(20)
    .describe("Failed sign-ins per source address, across accounts, before lockouts start."),
  SIGN_IN_LOCKOUT_BASE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(2)
    .describe("The first lockout past the free failures; each further failure doubles it."),
  SIGN_IN_LOCKOUT_MAX_SECONDS: z.coerce.number().int().min(1).default(900).describe("The longest sign-in lockout."),
  SIGN_IN_FAILURE_RESET_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(3600)
    .describe("Sign-in failures this long after the last one are forgotten."),
  AUTH_FAILURE_LIMIT: z.coerce
    .number()
    .int()
    .min(0)
    .default(100)
    .describe("Failed API keys and session cookies one source address may send per window before it is locked out."),
  AUTH_FAILURE_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(300)
    .describe("The window of `AUTH_FAILURE_LIMIT`, and the lockout."),
  TRUST_PROXY: z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .default(0)
    .describe(
      "Reverse proxies in front of the host whose `X-Forwarded-For` entries are trusted for the source address " +
        "(`n`: the n-th entry from the right; 0: the socket's peer).",
    ),
  REQUEST_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(30)
    .describe(
      "A request's head and body must arrive within this, else 408 `REQUEST_TIMEOUT` (a body shorter than its " +
        "`Content-Length` cannot hang).",
    ),
  CHAIN_REQUEST_TIMEOUT_SECONDS: z.coerce
    .number()
    .min(0.1)
    .default(5)
    .describe(
      "How long a request may wait in all on the chain's node for its live reads (pre-checks, gas status, contract " +
        "inspection), else 503 `SERVICE_UNAVAILABLE`: a stalled node never holds a request longer.",
    ),
  ACCOUNT_ABSTRACTION_ENABLED: booleanSetting("false").describe(
    "Whether `X-Executor: smart-wallet` may be used at all (organisations opt in too).",
  ),
  RECEIPT_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(120)
    .describe("How long a confirmation waits for a receipt before reconciliation takes the write over."),
  STUCK_TRANSACTION_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(30)
    .describe(
      "How long a broadcast write may wait unmined in the node's pool before it is re-signed with the same nonce " +
        "and higher fees (or broadcast again when the node no longer holds it; the signer's next write to be mined " +
        "goes out again after 2 s, e.g. when a reorg removed it).",
    ),
  FEE_BUMP_LIMIT: z.coerce
    .number()
    .int()
    .min(0)
    .default(3)
    .describe("How many fee bumps one write gets before its receipt times out to reconciliation."),
  RECONCILE_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(3600)
    .describe("How long a write may stay without a receipt before reconciliation broadcasts or signs it again."),
  RECONCILE_RETRY_BUDGET: z.coerce
    .number()
    .int()
    .min(0)
    .default(3)
    .describe("How many times reconciliation retries a write before it is DEAD_LETTER."),
  WORKER_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(4)
    .describe("graphile-worker jobs run at once in each worker process."),
  WORKER_MODE: z
    .enum(["process", "in-process"])
    .default("process")
    .describe("`process`: the worker runs as its own supervised Node process; `in-process`: inside the host's."),
  WORKER_PROCESSES: processCount.describe(
    "Worker processes the supervisor starts (`WORKER_MODE=process`); graphile-worker's locks give each job to one.",
  ),
  WORKER_DEAD_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(4)
    .max(3600)
    .default(20)
    .describe(
      "How long a worker process's heartbeat may stay silent before the other worker processes release the jobs it " +
        "held (it died: SIGKILL, a lost machine). Each beats every quarter of this.",
    ),
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(2)
    .max(200)
    .default(20)
    .describe(
      "PostgreSQL connections each host process keeps at most. Requests beyond them wait for one (a burst of " +
        "bundler acceptances queued behind 10). Mind the server's `max_connections` across host and worker processes " +
        "(the embedded server allows 200).",
    ),
  HOST_PROCESSES: processCount.describe(
    "Host processes `npm start` runs: its own on `PORT`, then one per port after it (`PORT+1`, …; free ports " +
      "with `PORT=0`), to put behind a load balancer.",
  ),
  RESTART_BACKOFF_SECONDS: z.coerce
    .number()
    .min(0.01)
    .max(30)
    .default(0.5)
    .describe(
      "The supervisor's wait before it restarts a part that exited on its own (a worker or host process, the embedded " +
        "database, chain or indexer): doubled at each exit in a row, up to 30 s, and back to this once the part has " +
        "stayed up a minute.",
    ),
  READ_CACHE_ENTRIES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1000)
    .describe(
      "Activity feed pages and counts each host keeps per index version (host/cache/indexed-reads.ts); `0` keeps none.",
    ),
  TRUSTED_ORIGINS: z
    .string()
    .optional()
    .describe(
      "Comma-separated origins (`https://console.example.com,http://localhost:5173`) besides the API's own (and " +
        "`PUBLIC_BASE_URL`'s) whose pages may send writes authenticated by the session cookie; a session write from " +
        "any other `Origin` is refused with 403 CROSS_SITE_REQUEST_REFUSED.",
    ),
  LOG_LEVEL: z
    .enum(["debug", "info", "warn", "error"])
    .default("info")
    .describe("The platform's log level (JSON lines on stderr)."),
  PLUGIN_MODULES: z
    .string()
    .optional()
    .describe(
      "Comma-separated plugin modules (paths from the project root, each `export default definePlugin(…)`) loaded " +
        "besides `plugins/index.ts`, e.g. `plugins/example-notes/index.ts`; read from the process's environment at start.",
    ),
  WEBHOOK_REORG_DEPTH: z
    .string()
    .regex(/^(\d{1,4}|\d{1,12}:\d{1,4})(,(\d{1,4}|\d{1,12}:\d{1,4}))*$/, "a depth (12), chainId:depth pairs, or both")
    .default("12")
    .describe(
      "Blocks after which an indexed observation is final (`token.transfer.final`) and a provisional event can no " +
        "longer be retracted: one depth (`12`), per chain (`1:64,31337:3`), or both (`12,31337:3`).",
    ),
});
/** One entry of CHAINS. */
const ChainEntrySchema = z
  .object({
    id: z.number().int().min(1).max(9007199254740991),
    rpcUrl: z.string().url(),
    wsUrl: z
      .string()
      .url()
      .regex(/^wss?:\/\//, "a ws:// or wss:// URL")
      .optional(),
    /** Blocks after which an indexed observation is final; default: WEBHOOK_REORG_DEPTH's for the chain. */
    finalityDepth: z.number().int().min(0).max(9999).optional(),
    /** The platform's contracts already deployed there; default: deployed by DEPLOYER_PRIVATE_KEY. */
    deploymentManifest: z.string().optional(),
    /** Lanes of the indexer's paced RPC budget (src/index-chains.ts): more for a node that does not rate-limit. */
    indexRpcLanes: z.number().int().min(1).max(32).optional(),
  })
  .strict();

/** A chain the platform serves, as configured: an external node (rpcUrl) or an embedded anvil (anvilPort). */
export interface ChainSetting {
  /** Required of an embedded chain; of an external one, checked against its node when given. */
  chainId?: number;
  rpcUrl?: string;
  wsUrl?: string;
  /** The embedded anvil's port. */
  anvilPort?: number;
  deploymentManifest?: string;
  /** Blocks after which an indexed observation is final. */
  finalityDepth: number;
  /** Lanes of the indexer's paced RPC budget; default: 1, a local development chain's LOCAL_RPC_LANES. */
  indexRpcLanes?: number;
}

export type Config = z.infer<typeof ConfigSchema> & {
  dataDir: string;
  /** The served chains (CHAINS, else RPC_URL, else EMBEDDED_CHAINS anvils), the primary first. */
  chains: ChainSetting[];
  /** Each plugin's own settings by plugin id, as its `settings` schema gives them (host/plugin-host.ts's pluginContext). */
  pluginSettings: ReadonlyMap<string, unknown>;
};

type Settings = z.infer<typeof ConfigSchema>;

function chainSettings(settings: Settings): ChainSetting[] {
  const depth = (chainId: number | undefined, given?: number) =>
    given ?? reorgDepth(settings.WEBHOOK_REORG_DEPTH, chainId ?? 0);
  if (settings.CHAINS !== undefined) {
    const clashing = (["RPC_URL", "CHAIN_ID", "WS_URL", "DEPLOYMENT_MANIFEST"] as const).filter(
      (name) => settings[name] !== undefined,
    );
    if (clashing.length > 0) throw new Error(`CHAINS replaces ${clashing.join(", ")}: give one or the other`);
    let entries: z.infer<typeof ChainEntrySchema>[];
    try {
      entries = z.array(ChainEntrySchema).min(1).parse(JSON.parse(settings.CHAINS));
    } catch (error) {
      throw new Error(
        `CHAINS: a JSON list of {id, rpcUrl, wsUrl?, finalityDepth?, deploymentManifest?, indexRpcLanes?}: ${error}`,
      );
    }
    const ids = entries.map((e) => e.id);
    if (new Set(ids).size !== ids.length) throw new Error("CHAINS names a chain id twice");
    return entries.map((e) => ({
      chainId: e.id,
      rpcUrl: e.rpcUrl,
      wsUrl: e.wsUrl,
      deploymentManifest: e.deploymentManifest,
      finalityDepth: depth(e.id, e.finalityDepth),
      indexRpcLanes: e.indexRpcLanes,
    }));
  }
  if (settings.RPC_URL !== undefined) {
    return [
      {
        chainId: settings.CHAIN_ID,
        rpcUrl: settings.RPC_URL,
        wsUrl: settings.WS_URL,
        deploymentManifest: settings.DEPLOYMENT_MANIFEST,
        finalityDepth: depth(settings.CHAIN_ID),
      },
    ];
  }
  const first = settings.CHAIN_ID ?? 31337;
  return Array.from({ length: settings.EMBEDDED_CHAINS }, (_, i) => ({
    chainId: first + i,
    anvilPort: settings.ANVIL_PORT + i,
    wsUrl: i === 0 ? settings.WS_URL : undefined,
    deploymentManifest: i === 0 ? settings.DEPLOYMENT_MANIFEST : undefined,
    finalityDepth: depth(first + i),
  }));
}

/** The reorg depth of a chain under WEBHOOK_REORG_DEPTH (a pair for the chain wins over the bare depth). */
export function reorgDepth(setting: string, chainId: number): number {
  const entries = setting.split(",").map((part) => part.split(":"));
  const forChain = entries.find(([id, depth]) => depth !== undefined && Number(id) === chainId);
  const everyChain = entries.findLast(([, depth]) => depth === undefined);
  return Number(forChain?.[1] ?? everyChain?.[0] ?? 12);
}

/** Whether the platform starts its own database and chain (no DATABASE_URL, RPC_URL or CHAINS): a machine of one's own. */
export function runsEmbedded(settings: Pick<Settings, "DATABASE_URL" | "RPC_URL" | "CHAINS">): boolean {
  return !settings.DATABASE_URL && !settings.RPC_URL && !settings.CHAINS;
}

/** A plugin as the loader sees it: its id and, when it has settings of its own, their schema. */
export interface SettingsOwner {
  id: string;
  settings?: z.ZodObject;
}

/** The core's and `plugins`' settings from `env`, validated: an invalid value throws with one line per setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, plugins: readonly SettingsOwner[] = []): Config {
  const problems: string[] = [];
  const parse = <T>(schema: z.ZodType<T>, owner?: string): T | undefined => {
    const parsed = schema.safeParse(env);
    const of = owner ? ` (plugin ${owner})` : "";
    if (!parsed.success) problems.push(...parsed.error.issues.map((i) => `  ${i.path.join(".")}${of}: ${i.message}`));
    return parsed.data;
  };
  const settings = parse(ConfigSchema);
  const pluginSettings = new Map<string, unknown>();
  for (const [index, plugin] of plugins.entries()) {
    if (!plugin.settings) continue;
    for (const name of Object.keys(plugin.settings.shape)) {
      const earlier = plugins.slice(0, index).find((other) => other.settings?.shape[name]);
      const owner = name in ConfigSchema.shape ? "the host core" : earlier?.id;
      if (owner) throw new Error(`Plugin "${plugin.id}" declares the setting ${name}, which ${owner} declares too`);
    }
    pluginSettings.set(plugin.id, parse(plugin.settings, plugin.id));
  }
  if (!settings || problems.length > 0) throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
  return {
    ...settings,
    chains: chainSettings(settings),
    dataDir: resolve(settings.DATA_DIR),
    pluginSettings,
  };
}
