// Recovery without a person, timed from a fault: until /readyz answers 200, and until the next write (a probe, sent
// once it is ready and retried under its key) completes.
import type { Credentials } from "./platform-process.ts";
import type { Writers } from "./writers.ts";

export interface Recovery {
  readySeconds: number;
  writeSeconds: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function readyz(credentials: Credentials): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${credentials.baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) }).catch(
    () => undefined,
  );
  await res?.body?.cancel();
  return { status: res?.status ?? 0, ms: performance.now() - started };
}

export async function recoverySince(
  since: number,
  credentials: Credentials,
  writers: Writers,
  timeoutMs = 180_000,
): Promise<Recovery> {
  while ((await readyz(credentials)).status !== 200) {
    if (Date.now() - since > timeoutMs) throw new Error(`/readyz not 200 within ${timeoutMs / 1000} s of the fault`);
    await sleep(200);
  }
  const readySeconds = (Date.now() - since) / 1000;
  const probe = await writers.probe("recovery");
  if (probe.status !== "COMPLETED") throw new Error(`the probe write after the fault ended ${probe.status}`);
  return { readySeconds, writeSeconds: (Date.now() - since) / 1000 };
}
