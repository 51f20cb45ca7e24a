// The platform's cluster-wide crontab entries (reconciliation, the webhook sweep) run at each minute. A test that
// strands work on purpose and asserts that only its own call recovers it first steps clear of the next tick.
export async function clearOfMinuteTick(windowSeconds: number): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second + windowSeconds > 58) await new Promise((r) => setTimeout(r, (62 - second) * 1000));
}
