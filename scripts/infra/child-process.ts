// Supervised child processes: output to a log file (written by the child itself: its output never passes through
// this process, whose event loop is also the host's), clean stop on SIGTERM with a SIGKILL fallback.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, fchmodSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { forgetChild, recordChild } from "./orphans.ts";

export interface Child {
  name: string;
  process: ChildProcess;
  stop(): Promise<void>;
  /** Resolves when the child exits; rejects never. */
  exited: Promise<number | null>;
}

/**
 * util-linux's setpriv (Debian's util-linux, an essential package): it sets the parent-death signal and then runs the
 * program in its place (same PID), so the kernel stops the program when the supervisor dies, even by SIGKILL.
 */
const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"].find((path) => existsSync(path));

/** The command line that runs `command`, stopped with `signal` when this process dies (as is, without setpriv). */
function diesWithSupervisor(command: string, args: string[], signal: NodeJS.Signals): [string, string[]] {
  return SETPRIV ? [SETPRIV, ["--pdeathsig", signal, "--", command, ...args]] : [command, args];
}

export function startChild(
  name: string,
  command: string,
  args: string[],
  options: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    logFile: string;
    uid?: number;
    gid?: number;
    /** The signal that asks this program for a clean, prompt stop (PostgreSQL's fast shutdown is SIGINT). */
    stopSignal?: NodeJS.Signals;
    /** An IPC channel to the child (Node children): messages, and the child sees the supervisor die. */
    ipc?: boolean;
    /** Where to keep its PID file, so a start after a crash of the supervisor can stop it (see orphans.ts). */
    dataDir?: string;
  },
): Child {
  mkdirSync(dirname(options.logFile), { recursive: true, mode: 0o700 });
  // Private to the platform's user (anvil's log holds the chain's keys), also when an earlier start made it.
  const fd = openSync(options.logFile, "a", 0o600);
  fchmodSync(fd, 0o600);
  // A Node child sees the supervisor die on its IPC channel (stop-when-told.ts); any other gets its stop signal.
  const [file, argv] = options.ipc
    ? [command, args]
    : diesWithSupervisor(command, args, options.stopSignal ?? "SIGTERM");
  let child: ChildProcess;
  try {
    child = spawn(file, argv, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      // The log file itself as stdout and stderr (appending: lines of both stay whole).
      stdio: options.ipc ? ["ignore", fd, fd, "ipc"] : ["ignore", fd, fd],
      uid: options.uid,
      gid: options.gid,
      // Own process group: a terminal's Ctrl-C reaches only the supervisor, which stops children in order.
      detached: true,
    });
  } finally {
    closeSync(fd); // the child holds its own copy
  }
  let stopping = false;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  if (options.dataDir && child.pid) {
    const dataDir = options.dataDir;
    recordChild(dataDir, name, child.pid, options.stopSignal ?? "SIGTERM");
    void exited.then(() => forgetChild(dataDir, name));
  }
  return {
    name,
    process: child,
    exited,
    async stop() {
      if (stopping || child.exitCode !== null || child.signalCode !== null) return void (await exited);
      stopping = true;
      child.kill(options.stopSignal ?? "SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `check` until it resolves true, or throws after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
  intervalMs = 100,
  abortReason: () => string | undefined = () => undefined,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reason = abortReason();
    if (reason) throw new Error(`Gave up waiting for ${what}: ${reason}`);
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
