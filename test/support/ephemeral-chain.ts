// A throwaway embedded anvil (no state file) for a test file or describe block: started before its tests, stopped
// and its data dir removed after them.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type Chain, startChain } from "../../scripts/infra/anvil.ts";
import { removeDataDir } from "../../scripts/infra/data-dir.ts";
import { freePort } from "./free-port.ts";

type ChainOptions = Omit<Parameters<typeof startChain>[0], "dataDir" | "port" | "ephemeral">;

/** Registers the chain's start and stop with the enclosing suite; `node` is the running chain inside its tests. */
export function ephemeralChain(name: string, options: ChainOptions = {}): { dataDir: string; readonly node: Chain } {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  let chain: Chain | undefined;
  beforeAll(async () => {
    chain = await startChain({ ...options, dataDir, port: await freePort(), ephemeral: true });
  });
  afterAll(async () => {
    await chain?.stop();
    removeDataDir(dataDir);
  });
  return {
    dataDir,
    get node() {
      if (!chain) throw new Error(`the ${name} chain runs only within its suite's tests`);
      return chain;
    },
  };
}
