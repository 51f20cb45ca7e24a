// Test ports reserved across processes: a file per port, created exclusively, naming the process that holds it, so a
// port handed to a listener that starts seconds later is not handed to anyone else meanwhile. A reservation lasts
// while its process lives: removed at its exit when it exits normally; a process ended by a signal (vitest ends its
// workers so) leaves its files, taken over once its pid is gone and removed by a run's teardown (a later run's for
// workers that outlive it).
import { chmodSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Shared by every user's test processes (sticky, as /tmp: each removes only its own files). */
export const RESERVATIONS_DIR = join(tmpdir(), "platform-test-ports");

// One record per process, whatever number of module instances (vitest imports this module once per test file).
const STATE = Symbol.for("platform.testPortReservations");
const shared = globalThis as { [STATE]?: { held: Set<string>; readyDirs: Set<string> } };
shared[STATE] ??= { held: new Set<string>(), readyDirs: new Set<string>() };
const { held, readyDirs } = shared[STATE];

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // another user's process
  }
}

/** Whether a reservation file names a process that is gone (not one being written, or already removed). */
function stale(file: string): boolean {
  try {
    const holder = Number(readFileSync(file, "utf8"));
    return Number.isInteger(holder) && holder > 0 && !alive(holder);
  } catch {
    return false;
  }
}

/** Creates the port's file for this process; false if another process holds it. */
function reserveOne(dir: string, port: number): boolean {
  const file = join(dir, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      held.add(file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (!stale(file)) return false;
    try {
      unlinkSync(file); // its process is gone
    } catch {
      return false; // another user's file, or taken over by someone else first
    }
  }
  return false;
}

/** The directory made (shared: sticky and writable by all) and this process's release at exit, once. */
function prepare(dir: string) {
  if (readyDirs.has(dir)) return;
  mkdirSync(dir, { recursive: true });
  try {
    chmodSync(dir, 0o1777);
  } catch {
    // made by another user, who set its mode
  }
  if (readyDirs.size === 0) process.once("exit", releaseAll);
  readyDirs.add(dir);
}

/** Reserves ports [first, first + count) for this process, all or none. */
export function reservePorts(first: number, count: number, dir = RESERVATIONS_DIR): boolean {
  prepare(dir);
  const taken: number[] = [];
  for (let port = first; port < first + count; port++) {
    if (reserveOne(dir, port)) taken.push(port);
    else {
      for (const port of taken) release(join(dir, String(port)));
      return false;
    }
  }
  return true;
}

function release(file: string) {
  held.delete(file);
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** Removes this process's reservations (at exit). */
export function releaseAll() {
  for (const file of [...held]) release(file);
}

/** Removes the reservations of processes that are gone (a test run's teardown: its workers were ended by signal). */
export function removeStaleReservations(dir = RESERVATIONS_DIR) {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return;
  }
  for (const file of files.map((name) => join(dir, name)))
    if (stale(file))
      try {
        unlinkSync(file);
      } catch {
        // removed meanwhile, or another user's
      }
}
