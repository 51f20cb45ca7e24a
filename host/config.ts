// Every setting the platform reads from the environment, validated once at start.
import { resolve } from "node:path";
import { z } from "zod";

const port = z.coerce.number().int().min(0).max(65535);
const hexKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "a 0x-prefixed 32-byte hex string");

export const ConfigSchema = z.object({
  DATA_DIR: z.string().default(".data"),
  PORT: port.default(8080),
  HOST: z.string().default("127.0.0.1"),
  PUBLIC_BASE_URL: z.string().url().optional(),
  DATABASE_URL: z.string().optional(),
  EMBEDDED_POSTGRES_PORT: port.default(54329),
  RPC_URL: z.string().url().optional(),
  /** The chain's WebSocket endpoint (ws:// or wss://): the index follows new blocks over it instead of polling. */
  WS_URL: z
    .string()
    .url()
    .regex(/^wss?:\/\//, "a ws:// or wss:// URL")
    .optional(),
  CHAIN_ID: z.coerce.number().int().positive().optional(),
  ANVIL_PORT: port.default(8545),
  /**
   * How the embedded anvil mines. `instant`: each transaction at once in a block of its own (a burst of 400 writes is
   * 400 blocks for the index to fetch); `interval`: a block every ANVIL_BLOCK_TIME_SECONDS holding whatever arrived,
   * as a real chain does, so a burst fills a few blocks. `npm start` sets `interval` unless given.
   */
  ANVIL_MINING: z.enum(["instant", "interval"]).default("instant"),
  /**
   * `interval`: the block time (fractions allowed). `instant`: also mine an empty block this often (0: only when a
   * transaction comes), so an idle chain still grows and indexed events reach their reorg depth. `npm start` sets 1.
   */
  ANVIL_BLOCK_TIME_SECONDS: z.coerce.number().min(0).max(3600).default(0),
  /**
   * Several chains (JSON list): each `{"id", "rpcUrl", "wsUrl"?, "finalityDepth"?, "deploymentManifest"?}`; the
   * first is the primary chain (new organisations' default network). Replaces RPC_URL, CHAIN_ID, WS_URL and
   * DEPLOYMENT_MANIFEST.
   */
  CHAINS: z.string().optional(),
  /** Without RPC_URL or CHAINS: this many embedded anvils, chain ids CHAIN_ID (31337) + i on ports ANVIL_PORT + i. */
  EMBEDDED_CHAINS: z.coerce.number().int().min(1).max(8).default(1),
  DEPLOYER_PRIVATE_KEY: hexKey.optional(),
  DEPLOYMENT_MANIFEST: z.string().optional(),
  PONDER_PORT: port.default(42069),
  INDEX_VIEWS_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,44}$/)
    .default("ledger"),
  CUSTODY_MASTER_KEY: hexKey.optional(),
  ORG_FUNDING_WEI: z.coerce.bigint().default(10n ** 20n),
  /** An organisation's paymaster deposit at the EntryPoint, topped up to this when below half of it (wei). */
  PAYMASTER_DEPOSIT_WEI: z.coerce.bigint().default(10n ** 18n),
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).default(1200),
  API_KEY_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Sign-in and second-factor lockouts (host/auth/sign-in-throttle.ts): failures allowed per account and address. */
  SIGN_IN_FREE_FAILURES: z.coerce.number().int().min(0).default(5),
  SIGN_IN_ADDRESS_FREE_FAILURES: z.coerce.number().int().min(0).default(20),
  /** The first lockout past the free failures; each further failure doubles it, up to the maximum. */
  SIGN_IN_LOCKOUT_BASE_SECONDS: z.coerce.number().int().min(1).default(2),
  SIGN_IN_LOCKOUT_MAX_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Failures this long after the last one are forgotten. */
  SIGN_IN_FAILURE_RESET_SECONDS: z.coerce.number().int().min(1).default(3600),
  /** Failed API keys and session cookies one source address may send per window (host/auth/credential-failures.ts). */
  AUTH_FAILURE_LIMIT: z.coerce.number().int().min(0).default(100),
  AUTH_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(300),
  /** Reverse proxies in front of the host whose X-Forwarded-For entries are trusted (0: the socket's peer). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** A request's head and body must arrive within this (a body shorter than its Content-Length answers 408). */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(30),
  ACCOUNT_ABSTRACTION_ENABLED: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /** The bundler's debug_bundler_ methods (ERC-7769's test namespace: clear state, dump the mempool, bundle now). */
  BUNDLER_DEBUG_METHODS: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /** Where POST /api/v2/exchange-rates/sync and the hourly sync read rates: `file` (JSON) or `ecb` (daily XML). */
  EXCHANGE_RATES_PROVIDER: z.enum(["file", "ecb"]).default("file"),
  /** The `file` provider's JSON; unset: the sample shipped in plugins/exchange-rates/sample-rates.json. */
  EXCHANGE_RATES_FILE: z.string().min(1).optional(),
  EXCHANGE_RATES_ECB_URL: z.string().url().default("https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"),
  RECEIPT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(120),
  /** A broadcast write still unmined this long is re-signed with the same nonce and higher fees. */
  STUCK_TRANSACTION_SECONDS: z.coerce.number().int().min(1).default(30),
  FEE_BUMP_LIMIT: z.coerce.number().int().min(0).default(3),
  RECONCILE_AFTER_SECONDS: z.coerce.number().int().min(1).default(3600),
  RECONCILE_RETRY_BUDGET: z.coerce.number().int().min(0).default(3),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** `process`: the worker runs as its own supervised Node process; `in-process`: inside the host process. */
  WORKER_MODE: z.enum(["process", "in-process"]).default("process"),
  /** Worker processes the supervisor starts (WORKER_MODE=process). */
  WORKER_PROCESSES: z.coerce.number().int().min(1).max(16).default(1),
  /** Host processes `npm start` runs: the supervisor's own, then more on the ports after PORT (PORT 0: free ones). */
  HOST_PROCESSES: z.coerce.number().int().min(1).max(16).default(1),
  /** Read results computed from the index kept per index version (host/cache/indexed-reads.ts); 0 keeps none. */
  READ_CACHE_ENTRIES: z.coerce.number().int().min(0).default(1000),
  /** Every /api request is recorded for the monitoring routes (plugins/monitoring/); false records none. */
  REQUEST_LOG_ENABLED: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  /** Recorded requests older than this are pruned (hourly, across the cluster). */
  REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(31),
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`; unset, it is open. */
  METRICS_TOKEN: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Webhook endpoints may be http and on loopback/private/link-local addresses (default: true only when embedded). */
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: z.enum(["true", "false"]).optional(),
  /** The first retry of a failed webhook delivery waits about this long; each further one doubles it (12 retries). */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().default(60),
  /**
   * Blocks after which an indexed observation is final (host/events/index-lifecycle.ts): a depth for every chain
   * (`12`), per chain (`1:64,31337:3`), or both (`12,31337:3`).
   */
  WEBHOOK_REORG_DEPTH: z
    .string()
    .regex(/^(\d{1,4}|\d{1,12}:\d{1,4})(,(\d{1,4}|\d{1,12}:\d{1,4}))*$/, "a depth (12), chainId:depth pairs, or both")
    .default("12"),
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

export type Config = Omit<z.infer<typeof ConfigSchema>, "WEBHOOKS_ALLOW_PRIVATE_TARGETS"> & {
  dataDir: string;
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: boolean;
  /** The served chains (CHAINS, else RPC_URL, else EMBEDDED_CHAINS anvils), the primary first. */
  chains: ChainSetting[];
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const { WEBHOOKS_ALLOW_PRIVATE_TARGETS: allowPrivate, ...settings } = parsed.data;
  // The embedded defaults (the platform starts its own database and chain: a machine of one's own) allow them.
  const embedded = !settings.DATABASE_URL && !settings.RPC_URL && !settings.CHAINS;
  return {
    ...settings,
    chains: chainSettings(settings),
    dataDir: resolve(settings.DATA_DIR),
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: allowPrivate === undefined ? embedded : allowPrivate === "true",
  };
}
