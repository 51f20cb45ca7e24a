// Recovery without a person, timed from a fault: until /readyz answers 200 (the killed part restarted), and until the next write (a probe, sent
// once it is ready and retried under its key) completes.
import type { Credentials } from "./platform-process.ts";
import type { Writers } from "./writers.ts";

export interface Recovery {
  readySeconds: number;
  writeSeconds: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Readiness {
  status: number;
  ms: number;
  /** The supervised parts' states, as /readyz lists them. */
  parts: { name: string; restarts: number }[];
}

export async function readyz(credentials: Credentials): Promise<Readiness> {
  const started = performance.now();
  const res = await fetch(`${credentials.baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) }).catch(
    () => undefined,
  );
  const body = (await res?.json().catch(() => undefined)) as { parts?: Readiness["parts"] } | undefined;
  return { status: res?.status ?? 0, ms: performance.now() - started, parts: body?.parts ?? [] };
}

/** How often /readyz says `part` was restarted so far. */
export const restartsOf = (readiness: Readiness, part: string) =>
  readiness.parts.find((p) => p.name === part)?.restarts ?? 0;

/** When recovery is timed from, and the part whose restart it waits for (a 200 before it is the old readiness). */
export interface Fault {
  at: number;
  restarted?: { part: string; restartsBefore: number };
}

export async function recoverySince(
  fault: Fault,
  credentials: Credentials,
  writers: Writers,
  timeoutMs = 180_000,
): Promise<Recovery> {
  const since = fault.at;
  const recovered = (r: Readiness) =>
    r.status === 200 && (!fault.restarted || restartsOf(r, fault.restarted.part) > fault.restarted.restartsBefore);
  while (!recovered(await readyz(credentials))) {
    if (Date.now() - since > timeoutMs) throw new Error(`/readyz not 200 within ${timeoutMs / 1000} s of the fault`);
    await sleep(200);
  }
  const readySeconds = (Date.now() - since) / 1000;
  const probe = await writers.probe("recovery");
  if (probe.status !== "COMPLETED") throw new Error(`the probe write after the fault ended ${probe.status}`);
  return { readySeconds, writeSeconds: (Date.now() - since) / 1000 };
}
