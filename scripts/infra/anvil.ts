// The chain: RPC_URL when given, else anvil from npm, its state kept under $DATA_DIR/anvil (see chain-state.ts).
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { compactState, StateRefused, saveState, startFromState, stateFiles } from "./chain-state.ts";
import { type Child, startChild, waitFor } from "./child-process.ts";
import { retrying } from "./retry.ts";

export interface Chain {
  rpcUrl: string;
  /** Its WebSocket endpoint for new heads: WS_URL, or the embedded anvil's own when it mines while idle. */
  wsUrl?: string;
  chainId: number;
  embedded: boolean;
  /**
   * Runs `work` with every transaction mined at once: an embedded chain mining on an interval mines instantly meanwhile
   * (a deployment of dozens of contracts in order would otherwise wait a block for each), then resumes its interval.
   */
  minedInstantly<T>(work: () => Promise<T>): Promise<T>;
  /** The embedded anvil's process (for the supervisor to watch). */
  child?: Child;
  stop(): Promise<void>;
}

const asIs = <T>(work: () => Promise<T>) => work();

/** anvil's first default account (its well-known test mnemonic): funds and deploys on the embedded chain only. */
export const ANVIL_FUNDER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("@foundry-rs/anvil-linux-amd64/package.json")), "bin", "anvil");
}

export async function rpcCall<T>(
  rpcUrl: string,
  method: string,
  params: unknown[] = [],
  timeoutMs = 5_000,
): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`${method}: HTTP ${res.status} from ${rpcUrl}`);
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** anvil's flags for a mining mode: interval alone, or instant with (--mixed-mining) or without idle blocks. */
export function miningArguments(mining: "instant" | "interval", blockTimeSeconds: number): string[] {
  if (mining === "interval") {
    if (!(blockTimeSeconds > 0)) throw new Error("ANVIL_MINING=interval needs ANVIL_BLOCK_TIME_SECONDS above 0");
    return ["--block-time", String(blockTimeSeconds)];
  }
  return blockTimeSeconds > 0 ? ["--block-time", String(blockTimeSeconds), "--mixed-mining"] : [];
}

/**
 * How many block states the embedded anvil keeps (`--prune-history`): enough to reorganise the chain as deep as the
 * index follows a reorg (Ponder re-reads the newest 30 blocks of a local chain; the chain's finality depth, if
 * deeper). An `anvil_reorg` of depth d needs d + 1 of them. Older states serve only calls at old blocks, which
 * nothing of the platform makes; without the bound anvil keeps hundreds in memory and more on disk.
 */
export function historyStates(reorgDepth = 0): number {
  return Math.max(reorgDepth, INDEX_UNSETTLED_BLOCKS) + 1;
}
const INDEX_UNSETTLED_BLOCKS = 30;

/** How often the embedded chain's state is saved while it runs (and once more on a clean stop). */
export const STATE_SAVE_INTERVAL_MS = 30_000;

/** The first error line anvil printed, when it ended during its start. */
/** The last 4 KB the log file gained after `from` (a start's output: anvil writes it there itself). */
function logTail(file: string, from: number): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const { size } = fstatSync(fd);
    const start = Math.max(from, size - 4096); // the log of a long-lived data dir can be large: its tail only
    const tail = Buffer.alloc(Math.max(0, size - start));
    readSync(fd, tail, 0, tail.length, start);
    return tail.toString("utf8");
  } catch {
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function startError(output: string): string {
  const line = output.split("\n").find((l) => /^error/i.test(l.trim())) ?? output.trim().split("\n").at(-1);
  return line?.trim() || "no output";
}

export async function startChain(options: {
  rpcUrl?: string;
  wsUrl?: string;
  chainId?: number;
  dataDir: string;
  port: number;
  /** No state file (nor its periodic dumps, which grow with the chain's history): for benchmarks. */
  ephemeral?: boolean;
  /** `instant` (default): each transaction mined at once; `interval`: one block every `blockTimeSeconds`. */
  mining?: "instant" | "interval";
  /** `interval`: the block time; `instant`: also an empty block this often (0 or absent: never). */
  blockTimeSeconds?: number;
  /** The embedded anvil's name: its state under $DATA_DIR/<name>, its log and PID file (default `anvil`). */
  name?: string;
  /** The deepest reorg the platform follows on this chain (its finality depth): see historyStates. */
  reorgDepth?: number;
  /** How often the state is saved (default STATE_SAVE_INTERVAL_MS). */
  saveIntervalMs?: number;
  /** Where a one-line notice goes (a state that cannot be loaded, a failed save); default stderr. */
  say?: (line: string) => void;
}): Promise<Chain> {
  const say = options.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (options.rpcUrl) {
    const rpcUrl = options.rpcUrl;
    const chainId = Number.parseInt(
      await retrying(`eth_chainId at ${rpcUrl}`, () => rpcCall<string>(rpcUrl, "eth_chainId")),
      16,
    );
    if (options.chainId && options.chainId !== chainId) {
      throw new Error(`CHAIN_ID ${options.chainId} does not match the chain at RPC_URL (${chainId})`);
    }
    return { rpcUrl, wsUrl: options.wsUrl, chainId, embedded: false, minedInstantly: asIs, stop: async () => {} };
  }
  const chainId = options.chainId ?? 31337;
  const name = options.name ?? "anvil";
  const stateDir = join(options.dataDir, name);
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const files = stateFiles(stateDir);
  const rpcUrl = `http://127.0.0.1:${options.port}`;
  const launch = async (loadFile: string | undefined): Promise<Child> => {
    const logFile = join(options.dataDir, "logs", `${name}.log`);
    const logStart = existsSync(logFile) ? statSync(logFile).size : 0; // this start's output follows
    const child = startChild(
      name,
      anvilBinary(),
      [
        "--host",
        "127.0.0.1",
        "--port",
        String(options.port),
        "--chain-id",
        String(chainId),
        ...miningArguments(options.mining ?? "instant", options.blockTimeSeconds ?? 0),
        "--prune-history",
        String(historyStates(options.reorgDepth)),
        // No --state: anvil would write the file in place at exit (see chain-state.ts); this supervisor saves it,
        // and anvil's own dump when told to stop goes to a file of its own, adopted by the next start when whole.
        ...(loadFile ? ["--load-state", loadFile] : []),
        ...(options.ephemeral ? [] : ["--dump-state", files.exitDump]),
      ],
      { logFile, dataDir: options.dataDir },
    );
    const ended = new Promise<never>((_, reject) =>
      child.process.once("exit", (code) => {
        const reason = startError(logTail(logFile, logStart));
        // anvil checks its --load-state file before anything else, and names the flag when it refuses it.
        if (loadFile && reason.includes("--load-state")) reject(new StateRefused(reason));
        else reject(new Error(`anvil ended during its start (exit code ${code}): ${reason}`));
      }),
    );
    try {
      await Promise.race([
        ended,
        waitFor("anvil", async () => (await rpcCall<string>(rpcUrl, "eth_chainId")) !== undefined, 30_000, 50),
      ]);
    } catch (error) {
      await child.stop();
      throw error;
    }
    ended.catch(() => {}); // its later exit is the supervisor's business, not this start's
    return child;
  };
  const child = options.ephemeral ? await launch(undefined) : await startFromState(files, say, launch);
  // anvil regenerates its genesis block (new hash) on every restart from --state, while block 1 keeps
  // the old parent hash. The indexer treats the newest 30 blocks of chain 31337 as unsettled, so on a
  // young chain it anchors at genesis and sees a "reorg". Padding a fresh chain keeps genesis out of reach.
  if ((await rpcCall<string>(rpcUrl, "eth_blockNumber")) === "0x0") await rpcCall(rpcUrl, "anvil_mine", ["0x40"]);
  // A subscriber to new heads waits for the next block: only a chain that mines on its own makes one while idle (an
  // index restarted on an idle instant-mining chain would never see its first head and never be ready), so an
  // instant-mining anvil without a block time is polled.
  const minesWhileIdle = (options.blockTimeSeconds ?? 0) > 0;
  const wsUrl = minesWhileIdle ? `ws://127.0.0.1:${options.port}` : undefined;
  const interval = options.mining === "interval" ? (options.blockTimeSeconds ?? 0) : 0;
  // evm_setIntervalMining takes whole seconds: a shorter block time (tests use 0.5 s) keeps its interval meanwhile.
  const minedInstantly =
    interval >= 1 && Number.isInteger(interval)
      ? async <T>(work: () => Promise<T>) => {
          await rpcCall(rpcUrl, "evm_setAutomine", [true]);
          try {
            return await work();
          } finally {
            await rpcCall(rpcUrl, "evm_setIntervalMining", [interval]);
          }
        }
      : asIs;
  if (options.ephemeral)
    return { rpcUrl, wsUrl, chainId, embedded: true, minedInstantly, child, stop: () => child.stop() };

  // One save at a time; a failed one leaves the files as they were (the next one tries again).
  let saving: Promise<void> | undefined;
  const save = () =>
    (saving ??= (async () => {
      // A large state takes anvil a while to serialise.
      saveState(files, await compactState(await rpcCall<string>(rpcUrl, "anvil_dumpState", [], 120_000)));
    })()
      .catch((error) => say(`Could not save the chain state to ${files.current}: ${(error as Error).message}`))
      .finally(() => {
        saving = undefined;
      }));
  void save(); // at once: a loaded legacy file becomes the new format, a new chain is on disk from the start
  const timer = setInterval(save, options.saveIntervalMs ?? STATE_SAVE_INTERVAL_MS);
  timer.unref();
  void child.exited.then(() => clearInterval(timer)); // nothing to save from an anvil that ended
  const stop = async () => {
    clearInterval(timer);
    if (child.process.exitCode === null && child.process.signalCode === null) {
      await saving;
      await save(); // what the chain made since the last save
    }
    await child.stop();
  };
  return { rpcUrl, wsUrl, chainId, embedded: true, minedInstantly, child, stop };
}
