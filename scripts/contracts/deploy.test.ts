import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { duplicatesAndFailures, transactionsFrom } from "../../test/support/deployer-transactions.ts";
import { ephemeralChain } from "../../test/support/ephemeral-chain.ts";
import { startRpcFaultProxy } from "../chaos/rpc-fault-proxy.ts";
import { ANVIL_FUNDER_KEY, rpcCall } from "../infra/anvil.ts";
import { compileContracts } from "./compile.ts";
import { ensureDeployment } from "./deploy.ts";
import type { DeploymentStep } from "./deployment-steps.ts";
import { stepsPath } from "./deployment-steps.ts";
import { IMPLEMENTATIONS } from "./platform-contracts.ts";

describe("a deployment stopped midway", () => {
  const local = ephemeralChain("deploy-resume");

  it("resumes where it stopped: each contract created once, the index's start block kept", async () => {
    const manifestPath = join(local.dataDir, "deployments", "31337.json");
    const journal = stepsPath(manifestPath);
    const recorded = () =>
      existsSync(journal)
        ? (JSON.parse(readFileSync(journal, "utf8")).steps as Record<string, DeploymentStep>)
        : ({} as Record<string, DeploymentStep>);
    // The root is every implementation, the forwarder, then catalogue and addons, the SystemFactory last: once more
    // steps than the implementations are mined, the node fails every call (the root's last block is in the journal).
    const rootDone = () => Object.values(recorded()).filter((step) => step.block).length >= 53;
    const proxy = await startRpcFaultProxy(local.node.rpcUrl, {
      errorRate: 0.5,
      random: () => (rootDone() ? 0 : 0.99),
    });
    const deploy = () =>
      ensureDeployment({
        rpcUrl: proxy.url,
        chainId: 31337,
        deployerKey: ANVIL_FUNDER_KEY,
        manifestPath,
        build: compileContracts(),
        retry: { attempts: 2, firstDelayMs: 5 },
      });
    try {
      expect(Object.keys(IMPLEMENTATIONS).length).toBeLessThan(53);
      await expect(deploy()).rejects.toThrow();
      expect(existsSync(manifestPath)).toBe(false);
      const stoppedAt = recorded();
      proxy.setFaults({ errorRate: 0 });
      const { manifest } = await deploy();
      expect(existsSync(journal)).toBe(false); // complete: the manifest says it all
      // The index starts at the SystemFactory's block, known from the journal though this run found it deployed.
      expect(manifest.startBlock).toBe(stoppedAt[manifest.systemFactory.toLowerCase()]?.block?.number);
      const block = await rpcCall<{ hash: string }>(local.node.rpcUrl, "eth_getBlockByNumber", [
        `0x${manifest.startBlock.toString(16)}`,
        false,
      ]);
      expect(manifest.startBlockHash).toBe(block.hash);
      const sent = await transactionsFrom(local.node.rpcUrl, privateKeyToAccount(ANVIL_FUNDER_KEY).address);
      expect(duplicatesAndFailures(sent)).toEqual({ duplicated: 0, failed: 0 });
      // The root's 53, the EntryPoints v0.8 and v0.7, the smart wallets' two factories, the bundler's two simulations.
      expect(sent.length).toBe(59);
      // A manifest written before the bundler's simulations: the next start adds them (found deployed, none sent).
      const { entryPointSimulations, entryPointV07Simulations, ...older } = manifest;
      expect([entryPointSimulations, entryPointV07Simulations]).toEqual([expect.any(String), expect.any(String)]);
      writeFileSync(manifestPath, JSON.stringify(older));
      const { manifest: upgraded, reused } = await deploy();
      expect({ reused, entryPointSimulations: upgraded.entryPointSimulations }).toEqual({
        reused: true,
        entryPointSimulations,
      });
      expect(upgraded.entryPointV07Simulations).toBe(entryPointV07Simulations);
      expect(await transactionsFrom(local.node.rpcUrl, privateKeyToAccount(ANVIL_FUNDER_KEY).address)).toHaveLength(59);
    } finally {
      await proxy.stop();
    }
  });
});
