// The embedded anvil's state on disk. anvil's own `--state` writes its file in place (a kill while it writes leaves
// it empty, and the chain is lost) and keeps every transaction's full call trace (hundreds of MB after a busy hour).
// Instead the supervisor asks anvil for its state (anvil_dumpState), drops the traces (nothing reads the traces of
// old transactions; blocks, transactions and receipts stay, so the index can still read the whole history), and
// writes it gzipped and atomically, the previous good copy kept. anvil starts from the newest readable one. anvil
// also dumps its state to a file of its own when it is told to stop (`--dump-state`: the supervisor's stop, or the
// supervisor dying, which stops it with a signal): a start adopts that dump when it is whole and newer, so a
// supervisor killed outright loses nothing the chain made since the last save.
import { createReadStream, createWriteStream, existsSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { Worker } from "node:worker_threads";
import { createGunzip, gzipSync } from "node:zlib";
import { writeFileAtomically } from "./atomic-file.ts";

export interface StateFiles {
  /** The newest state (gzipped JSON, anvil's dump format). */
  current: string;
  /** The one before it, kept until the next write succeeds. */
  kept: string;
  /** The file anvil's own `--state` wrote before this design: loaded when no newer one exists. */
  legacy: string;
  /** The decompressed state handed to anvil's `--load-state` (removed once anvil is up). */
  loading: string;
  /** anvil's own dump when it stops (`--dump-state`), adopted by the next start (adoptExitDump). */
  exitDump: string;
}

export function stateFiles(dir: string): StateFiles {
  return {
    current: join(dir, "state.json.gz"),
    kept: join(dir, "state.prev.json.gz"),
    legacy: join(dir, "state.json"),
    loading: join(dir, "loading-state.json"),
    exitDump: join(dir, "state.exit.json"),
  };
}

/** Writes a gzipped state as the newest, keeping the previous one; the legacy file is superseded by it. */
export function saveState(files: StateFiles, gzipped: Uint8Array) {
  writeFileAtomically(files.current, gzipped, { keep: files.kept });
  rmSync(files.legacy, { force: true });
}

/**
 * Makes anvil's dump at its last stop the newest saved state when it is whole and newer than the last save (a torn
 * one, from a kill while anvil wrote it, is moved aside with one line naming it); the dump is removed either way.
 */
export async function adoptExitDump(files: StateFiles, say: (line: string) => void): Promise<void> {
  if (!existsSync(files.exitDump)) return;
  const newer = !existsSync(files.current) || statSync(files.exitDump).mtimeMs > statSync(files.current).mtimeMs;
  if (!newer) return rmSync(files.exitDump, { force: true });
  const text = readFileSync(files.exitDump);
  try {
    JSON.parse(text.toString("utf8"));
  } catch (error) {
    renameSync(files.exitDump, `${files.exitDump}.unreadable`);
    say(
      `anvil's state at its last stop ${files.exitDump} is torn (${(error as Error).message}); it is now ${files.exitDump}.unreadable`,
    );
    return;
  }
  saveState(files, await compactState(`0x${gzipSync(text).toString("hex")}`));
  rmSync(files.exitDump, { force: true });
}

/** Thrown by a start that anvil could not make from the state file it was given (the message says why). */
export class StateRefused extends Error {}

/**
 * Starts anvil from the newest readable state: `start` gets the file for `--load-state` (none: a new chain). Each
 * state is checked readable as it is reached (gzip's checksum catches a torn file), and `start` may refuse it
 * (StateRefused). A state that fails while the kept copy remains is moved aside (`<file>.unreadable`, so the next
 * write does not keep it as the good copy) and `say` tells so in one line naming it; when none is left, the start
 * fails with one line naming the file (left in place, so every start says the same until it is mended or removed).
 */
export async function startFromState<T>(
  files: StateFiles,
  say: (line: string) => void,
  start: (loadFile: string | undefined) => Promise<T>,
): Promise<T> {
  await adoptExitDump(files, say);
  const candidates = [files.current, files.kept].filter((file) => existsSync(file));
  if (candidates.length === 0) return start(existsSync(files.legacy) ? files.legacy : undefined);
  for (const [i, source] of candidates.entries()) {
    let reason = await decompress(source, files.loading).catch((error: Error) => error.message);
    if (reason === undefined) {
      try {
        return await start(files.loading);
      } catch (error) {
        if (!(error instanceof StateRefused)) throw error;
        reason = error.message;
      } finally {
        rmSync(files.loading, { force: true });
      }
    }
    const next = candidates[i + 1];
    const line = `The chain state ${source} cannot be loaded (${reason})`;
    if (!next) throw new Error(`${line}; no other copy is left (remove it to start a new, empty chain)`);
    renameSync(source, `${source}.unreadable`);
    say(`${line}; loading the kept copy ${next} (the unreadable one is now ${source}.unreadable)`);
  }
  throw new Error("unreachable: the last candidate returns or throws");
}

/** Resolves once `source` is fully decompressed to `target`; rejects on a torn or garbled file. */
async function decompress(source: string, target: string): Promise<undefined> {
  await pipeline(createReadStream(source), createGunzip(), createWriteStream(target, { mode: 0o600 }));
  return undefined;
}

// Runs off the supervisor's event loop (the host serves from it): a long-running chain's state is tens of MB to parse.
const COMPACT_IN_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const zlib = require("node:zlib");
const state = JSON.parse(zlib.gunzipSync(Buffer.from(workerData.slice(2), "hex")));
for (const mined of state.transactions ?? []) if (mined.info) mined.info.traces = [];
state.historical_states = null;
parentPort.postMessage(zlib.gzipSync(JSON.stringify(state)));
`;

/** anvil_dumpState's answer (hex of gzipped JSON) without the transactions' call traces, gzipped again. */
export function compactState(dumpHex: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(COMPACT_IN_WORKER, { eval: true, workerData: dumpHex });
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the state compaction ended (${code}) without a result`)));
  });
}
