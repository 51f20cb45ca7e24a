// Children the supervisor starts are detached (Ctrl-C reaches only the supervisor, which stops them in order), so a
// supervisor killed outright leaves them running. Each writes a PID file under $DATA_DIR/run; the next start stops
// any that are still alive before starting anew.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function pidFile(dataDir: string, name: string) {
  return join(dataDir, "run", `${name}.pid`);
}

export function recordChild(dataDir: string, name: string, pid: number, stopSignal: NodeJS.Signals) {
  mkdirSync(join(dataDir, "run"), { recursive: true, mode: 0o700 });
  writeFileSync(pidFile(dataDir, name), JSON.stringify({ pid, stopSignal }), { mode: 0o600 });
}

export function forgetChild(dataDir: string, name: string) {
  rmSync(pidFile(dataDir, name), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the children a previous supervisor left running (its own way for each: PostgreSQL's fast shutdown...). */
export async function reclaimOrphans(dataDir: string, say: (line: string) => void = () => {}) {
  const dir = join(dataDir, "run");
  if (!existsSync(dir)) return;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".pid"))) {
    const { pid, stopSignal } = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
      pid: number;
      stopSignal: NodeJS.Signals;
    };
    if (alive(pid)) {
      say(`stopping ${file.replace(/\.pid$/, "")} (pid ${pid}) left running by a previous start`);
      process.kill(pid, stopSignal);
      const deadline = Date.now() + 15_000;
      while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if (alive(pid)) process.kill(pid, "SIGKILL");
      while (alive(pid)) await new Promise((r) => setTimeout(r, 50));
    }
    rmSync(join(dir, file), { force: true });
  }
}
