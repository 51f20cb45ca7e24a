// How a child process of the supervisor (a worker, a further host) ends: a clean stop on SIGTERM or SIGINT, once;
// at once when the supervisor dies (its IPC channel closes), as a crash would.
export function stopWhenTold(stop: () => Promise<void>): void {
  let stopping = false;
  const stopOnce = async () => {
    if (stopping) return;
    stopping = true;
    await stop();
    process.exit(0);
  };
  process.on("SIGTERM", stopOnce);
  process.on("SIGINT", stopOnce);
  process.on("disconnect", () => process.exit(1));
}
