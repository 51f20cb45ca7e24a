// The chain: RPC_URL when given, else anvil from npm, its state kept under $DATA_DIR/anvil.
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { type Child, startChild, waitFor } from "./child-process.ts";

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

export async function rpcCall<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(5_000),
  });
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
}): Promise<Chain> {
  if (options.rpcUrl) {
    const rpcUrl = options.rpcUrl;
    const chainId = Number.parseInt(await rpcCall<string>(rpcUrl, "eth_chainId"), 16);
    if (options.chainId && options.chainId !== chainId) {
      throw new Error(`CHAIN_ID ${options.chainId} does not match the chain at RPC_URL (${chainId})`);
    }
    return { rpcUrl, wsUrl: options.wsUrl, chainId, embedded: false, minedInstantly: asIs, stop: async () => {} };
  }
  const chainId = options.chainId ?? 31337;
  const name = options.name ?? "anvil";
  const stateFile = join(options.dataDir, name, "state.json");
  mkdirSync(dirname(stateFile), { recursive: true }); // anvil does not create it
  const child: Child = startChild(
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
      ...(options.ephemeral
        ? []
        : [
            "--state",
            stateFile, // loaded at start, written on exit
            "--state-interval",
            "30", // and every 30 s, so a crash loses little
            // Not --preserve-historical-states: it dumps a full state per block (1 GB after 20 minutes of 1 s blocks,
            // seconds to load at each start, and a dump cut short at stop lost the chain); nothing reads old states.
          ]),
    ],
    { logFile: join(options.dataDir, "logs", `${name}.log`), dataDir: options.dataDir },
  );
  const rpcUrl = `http://127.0.0.1:${options.port}`;
  await waitFor("anvil", async () => (await rpcCall<string>(rpcUrl, "eth_chainId")) !== undefined, 30_000, 50);
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
  return { rpcUrl, wsUrl, chainId, embedded: true, minedInstantly, child, stop: () => child.stop() };
}
