// One served chain at start: its node (the given RPC URL, or an embedded anvil), then the platform's contracts there
// (the given manifest, or deployed and recorded under $DATA_DIR/deployments/<chainId>.json).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Hex } from "viem";
import type { ServedChainParts } from "../../host/chain/served-chains.ts";
import type { ChainSetting, Config } from "../../host/config.ts";
import { type IndexChainSource, LOCAL_RPC_LANES } from "../../src/index-chains.ts";
import type { BuildOutput } from "../contracts/compile.ts";
import { canonicalEntryPoint, type DeploymentManifest, ensureDeployment } from "../contracts/deploy.ts";
import { type Chain, startChain } from "./anvil.ts";

export interface DeployedChain {
  node: Chain;
  setting: ChainSetting;
  manifest: DeploymentManifest;
  /** A new root (the chain lost its state, or a new contract build): the organisations' systems there are stale. */
  chainReset: boolean;
  /** What the host and worker processes need of it. */
  parts: ServedChainParts;
  /** What the indexer needs of it. */
  index: IndexChainSource;
  /** One line for the start's progress. */
  description: string;
}

/**
 * What the indexer is told of a served chain. A local development chain (embedded, or chain id 31337) is reset far more
 * often than a public one and is the operator's own node: its blocks are not cached, its requests are not paced.
 */
export function indexSource(
  node: Pick<Chain, "rpcUrl" | "wsUrl" | "chainId" | "embedded">,
  setting: Pick<ChainSetting, "indexRpcLanes">,
  deployment: IndexChainSource["deployment"],
): IndexChainSource {
  const local = node.embedded || node.chainId === 31337;
  return {
    deployment,
    rpcUrl: node.rpcUrl,
    wsUrl: node.wsUrl,
    disableCache: local,
    rpcLanes: setting.indexRpcLanes ?? (local ? LOCAL_RPC_LANES : 1),
  };
}

/** The chain's node; the primary keeps the original names (anvil, anvil.log), the others are named by chain id. */
export function startChainNode(setting: ChainSetting, config: Config, primary: boolean): Promise<Chain> {
  return startChain({
    rpcUrl: setting.rpcUrl,
    wsUrl: setting.wsUrl,
    chainId: setting.chainId,
    dataDir: config.dataDir,
    port: setting.anvilPort ?? config.ANVIL_PORT,
    mining: config.ANVIL_MINING,
    blockTimeSeconds: config.ANVIL_BLOCK_TIME_SECONDS,
    name: primary ? "anvil" : `anvil-${setting.chainId}`,
    reorgDepth: setting.finalityDepth,
  });
}

/** The platform's contracts on a started node: its given manifest, or the recorded deployment (made when missing). */
export async function deployContracts(options: {
  node: Chain;
  setting: ChainSetting;
  dataDir: string;
  funderKey?: Hex;
  build: () => BuildOutput;
}): Promise<DeployedChain> {
  const { node, setting } = options;
  let manifest: DeploymentManifest;
  let chainReset = false;
  let contracts: string;
  if (setting.deploymentManifest) {
    const path = resolve(setting.deploymentManifest);
    manifest = JSON.parse(readFileSync(path, "utf8"));
    contracts = `manifest ${path}`;
  } else {
    if (!options.funderKey) {
      throw new Error(
        `DEPLOYER_PRIVATE_KEY is required to deploy to chain ${node.chainId} (or give its deployment manifest)`,
      );
    }
    const deployerKey = options.funderKey;
    const deployed = await node.minedInstantly(() =>
      ensureDeployment({
        rpcUrl: node.rpcUrl,
        chainId: node.chainId,
        deployerKey,
        manifestPath: resolve(join(options.dataDir, "deployments", `${node.chainId}.json`)),
        build: options.build(),
      }),
    );
    manifest = deployed.manifest;
    chainReset = deployed.chainReset || !deployed.reused;
    contracts = `${deployed.reused ? "reused" : "deployed"} system factory ${manifest.systemFactory}`;
  }
  return {
    node,
    setting,
    manifest,
    chainReset,
    parts: {
      chainId: node.chainId,
      rpcUrl: node.rpcUrl,
      systemFactory: manifest.systemFactory,
      entryPoint: manifest.entryPoint ?? (await canonicalEntryPoint(node.rpcUrl)),
      entryPointV07: manifest.entryPointV07 ?? (await canonicalEntryPoint(node.rpcUrl, "0.7")),
      entryPointSimulations: manifest.entryPointSimulations,
      entryPointV07Simulations: manifest.entryPointV07Simulations,
      smartAccountFactory: manifest.smartAccountFactory,
      paymasterFactory: manifest.paymasterFactory,
    },
    index: indexSource(node, setting, manifest),
    description: `chain ${node.chainId}: ${contracts}`,
  };
}
