// Free loopback ports for test listeners, in a module of its own: test/support/boot-check.ts runs in a fresh clone and
// needs it without importing the platform (stack.ts imports it all: ~6 s more before its `npm start`).
//
// The ports come from below the kernel's ephemeral range. A stack's outgoing connections (hundreds, to PostgreSQL and
// anvil) take their local ports from that range, and one took the indexer's port in the seconds between its pick and
// Ponder's listen (Ponder moved to the next port, PostgreSQL's, and exited with EADDRINUSE). Each process picks from
// a slice of its own (its vitest worker's), one port after another, so two workers never hand out the same port.
// Processes can still share a slice (two projects' workers of one pool id, a child inheriting VITEST_POOL_ID: one
// took a stack's indexer port between its pick and Ponder's listen), so each handed-out port is also reserved, by a
// file naming the process, until that process exits (port-reservations.ts).
import { readFileSync } from "node:fs";
import { isPortFree } from "../../scripts/infra/port-free.ts";
import { reservePorts } from "./port-reservations.ts";

const LOWEST = 10_000;
const SLICES = 16;

/** The first port of the kernel's ephemeral range (32768 when it cannot be read). */
export function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** The ports [from, to) this process picks from: its worker's slice of those below the ephemeral range. */
export function portSlice(
  low = ephemeralLow(),
  worker = Number(process.env.VITEST_POOL_ID ?? 0),
): { from: number; to: number } {
  const size = Math.floor((low - LOWEST) / SLICES);
  if (size < 64) return { from: LOWEST, to: Math.max(low, LOWEST + 64) }; // an odd kernel setting: one shared slice
  const from = LOWEST + (worker % SLICES) * size;
  return { from, to: from + size };
}

/**
 * The ports at or above LOWEST that fetch (undici, and so viem's HTTP transport) refuses to connect to ("bad port",
 * the Fetch standard's port blocking list): a listener there cannot be reached by the platform's own clients.
 */
export const FETCH_BLOCKED_PORTS: ReadonlySet<number> = new Set([10_080]);

/** Picks ports from `slice`, one block after another from `start`, skipping blocks fetch could not reach, where
 * something listens, or that another picker reserved (`reserve`: the block's reservation, or false). */
export function portPicker(
  slice: { from: number; to: number },
  start: number,
  reserve: (first: number, count: number) => boolean = reservePorts,
) {
  let next = start;
  return async function pick(count: number): Promise<number> {
    for (let tried = 0; tried < slice.to - slice.from; tried++) {
      if (next + count > slice.to) next = slice.from;
      const first = next;
      next += count;
      let all = true;
      for (let i = 0; i < count && all; i++) all = !FETCH_BLOCKED_PORTS.has(first + i) && (await isPortFree(first + i));
      if (all && reserve(first, count)) return first;
    }
    throw new Error(`No ${count} consecutive free ports in ${slice.from}-${slice.to - 1}`);
  };
}

const slice = portSlice();
// A random start, so that processes sharing a slice (a bench, a fresh clone's boot check) rarely meet.
const picker = portPicker(slice, slice.from + Math.floor(Math.random() * (slice.to - slice.from)));

/** `count` consecutive free ports (nothing listens on them now); returns the first. */
export function freeConsecutivePorts(count: number): Promise<number> {
  return picker(count);
}

export function freePort(): Promise<number> {
  return freeConsecutivePorts(1);
}
