// The embedded chain alone in a process of its own, as the supervisor runs it: started (after stopping what a killed
// predecessor left) in DATA_DIR on ANVIL_PORT, its state saved every SAVE_INTERVAL_MS, stopped cleanly on SIGTERM.
// Prints one JSON line when up (its URL, and how long the start took); a failed start prints "Start failed: …" and exits 1, as `npm start` does.
// For test/chain-state.test.ts, which kills it at awkward moments.
import { startChain } from "../../scripts/infra/anvil.ts";
import { reclaimOrphans } from "../../scripts/infra/orphans.ts";
import { stopWhenTold } from "../../scripts/infra/stop-when-told.ts";

const dataDir = process.env.DATA_DIR!;
const started = performance.now();
try {
  await reclaimOrphans(dataDir);
  const chain = await startChain({
    dataDir,
    port: Number(process.env.ANVIL_PORT),
    saveIntervalMs: Number(process.env.SAVE_INTERVAL_MS ?? 30_000),
  });
  stopWhenTold(chain.stop);
  process.stdout.write(`${JSON.stringify({ rpcUrl: chain.rpcUrl, startMs: performance.now() - started })}\n`);
} catch (error) {
  process.stderr.write(`Start failed: ${(error as Error).message}\n`);
  process.exit(1);
}
