// Deploys the platform's root once per chain (CREATE2, so the address is fixed by the build) and keeps
// a manifest that later starts reuse. Every call to the node is retried (a flaky node delays the deployment, it does
// not fail it) and each step is recorded, so a deployment stopped midway resumes where it stopped.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import {
  type Address,
  BlockNotFoundError,
  concat,
  createPublicClient,
  encodeDeployData,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  size,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  accountAbstractionArtifact,
  CANONICAL_ENTRY_POINT,
  CANONICAL_ENTRY_POINT_V07,
  ENTRY_POINT_SALT,
  ENTRY_POINT_V07_SALT,
  type EntryPointVersion,
} from "../../host/chain/entry-point.ts";
import { writeFileAtomically } from "../infra/atomic-file.ts";
import { type RetryOptions, retrying } from "../infra/retry.ts";
import type { BuildOutput } from "./compile.ts";
import { openDeploymentSteps } from "./deployment-steps.ts";
import { deployPlatformRoot, type PlatformRoot } from "./platform-contracts.ts";
import { broadcast, NonceTaken, receiptOf, signNext } from "./send-once.ts";

/** The deterministic-deployment proxy present on anvil and most EVM chains. */
export const CREATE2_DEPLOYER: Address = "0x4e59b44847b379578588920cA78FbF26c0B4956C";
const SALT = keccak256(toHex("asset-platform/v1"));

export interface DeploymentManifest {
  chainId: number;
  buildHash: string;
  systemFactory: Address;
  /** ERC-4337 EntryPoint v0.8 (the bundler's); absent from manifests written before it was deployed. */
  entryPoint?: Address;
  /** ERC-4337 EntryPoint v0.7 (the bundler serves it too); absent from manifests written before it was deployed. */
  entryPointV07?: Address;
  /** The bundler's simulations of each EntryPoint (the release's EntryPointSimulations runtime, run at the
   * EntryPoint's address by delegation: plugins/bundler/simulation-call.ts); absent from older manifests. */
  entryPointSimulations?: Address;
  entryPointV07Simulations?: Address;
  /** The smart wallets' factory (WeightedMultisigAccountFactory for that EntryPoint); absent from older manifests. */
  smartAccountFactory?: Address;
  /** Deploys each organisation's SponsoringPaymaster (CREATE2 by owner); absent from older manifests. */
  paymasterFactory?: Address;
  implementations: PlatformRoot["implementations"];
  features: Record<string, Address>;
  modules: Record<string, Address>;
  startBlock: number;
  startBlockHash: Hex;
  deployedAt: string;
}

function readManifest(path: string): DeploymentManifest | undefined {
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
}

export async function ensureDeployment(options: {
  rpcUrl: string;
  chainId: number;
  deployerKey: Hex;
  manifestPath: string;
  build: BuildOutput;
  /** How each call to the node is tried again (tests shorten it). */
  retry?: RetryOptions;
}): Promise<{ manifest: DeploymentManifest; reused: boolean; chainReset: boolean }> {
  const { rpcUrl, chainId, build, manifestPath, retry } = options;
  const chain = {
    id: chainId,
    name: `chain${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  };
  // Each call is retried here (viem's own retries would only add their pauses to these).
  const client = createPublicClient({ chain, transport: http(rpcUrl, { retryCount: 0 }), pollingInterval: 100 });
  const tried = <T>(what: string, work: () => Promise<T>) => retrying(what, work, retry);
  const hasCode = async (address: Address) => {
    const code = await tried(`eth_getCode ${address}`, () => client.getCode({ address }));
    return !!code && code !== "0x";
  };
  /** A block's hash; none when the chain has no such block (it was reset). */
  const blockHash = (number: number) =>
    tried(`eth_getBlockByNumber ${number}`, () => client.getBlock({ blockNumber: BigInt(number) })).then(
      (block) => block.hash as Hex,
      (error) => {
        if (error instanceof BlockNotFoundError) return undefined;
        throw error;
      },
    );

  const existing = readManifest(manifestPath);
  let chainReset = false;
  let sameRoot = false;
  if (existing && existing.chainId === chainId) {
    const anchorHash = await blockHash(existing.startBlock);
    const sameChain = anchorHash === existing.startBlockHash && (await hasCode(existing.systemFactory));
    chainReset = !sameChain;
    sameRoot = sameChain && existing.buildHash === build.hash;
  }

  const account = privateKeyToAccount(options.deployerKey);
  const steps = openDeploymentSteps(manifestPath, chainId);
  // One transaction at a time, each mined before the next (anvil stalls on out-of-order nonces).
  let lastBlock: { number: number; hash: Hex } | undefined;
  let deployerFound = false;
  async function create2(initCode: Hex, salt: Hex = SALT): Promise<Address> {
    const address = getContractAddress({ opcode: "CREATE2", from: CREATE2_DEPLOYER, salt, bytecode: initCode });
    const recorded = steps.get(address);
    if (await hasCode(address)) {
      lastBlock = recorded?.block ?? lastBlock; // deployed by a run that stopped before its manifest
      return address;
    }
    deployerFound ||= await hasCode(CREATE2_DEPLOYER);
    if (!deployerFound) throw new Error(`The CREATE2 deployer ${CREATE2_DEPLOYER} is missing on chain ${chainId}`);
    // A run that stopped before this step's receipt signed it at a nonce: signed again at that nonce while it is
    // free, so the earlier transaction and this one cannot both land.
    let nonce = recorded?.transaction?.nonce;
    for (;;) {
      const call = { to: CREATE2_DEPLOYER, data: concat([salt, initCode]) };
      const transaction = await signNext(client, account, chainId, call, { nonce, retry });
      steps.record(address, { transaction: { hash: transaction.hash, nonce: transaction.nonce } });
      try {
        await broadcast(client, transaction, retry);
        const receipt = await receiptOf(client, transaction, account.address, { retry });
        if (receipt.status !== "success") throw new Error(`CREATE2 deployment reverted (${transaction.hash})`);
        lastBlock = { number: Number(receipt.blockNumber), hash: receipt.blockHash };
        steps.record(address, { transaction: { hash: transaction.hash, nonce: transaction.nonce }, block: lastBlock });
        return address;
      } catch (error) {
        if (!(error instanceof NonceTaken)) throw error;
        if (await hasCode(address)) return address; // the earlier transaction at that nonce created it
        nonce = undefined; // another transaction took it: this step at the next one
      }
    }
  }
  // Each release's EntryPoint at its canonical address (found there if the chain has it already).
  const deployEntryPoint = () => create2(accountAbstractionArtifact("EntryPoint").bytecode, ENTRY_POINT_SALT);
  const deployEntryPointV07 = () =>
    create2(accountAbstractionArtifact("EntryPoint", "0.7").bytecode, ENTRY_POINT_V07_SALT);
  /** The smart wallets' factories for that EntryPoint: accounts, and the organisations' paymasters. */
  const deploySmartWalletFactories = async (entryPoint: Address) => {
    const forEntryPoint = (name: "WeightedMultisigAccountFactory" | "SponsoringPaymasterFactory") => {
      const { abi, bytecode } = build.contracts[name];
      return create2(encodeDeployData({ abi, bytecode, args: [entryPoint] }));
    };
    return {
      smartAccountFactory: await forEntryPoint("WeightedMultisigAccountFactory"),
      paymasterFactory: await forEntryPoint("SponsoringPaymasterFactory"),
    };
  };

  /** The bundler's simulations of both EntryPoints: each release's EntryPointSimulations runtime, as it is. */
  const deploySimulations = async () => ({
    entryPointSimulations: await create2(
      runtimeDeployment(accountAbstractionArtifact("EntryPointSimulations").deployedBytecode),
    ),
    entryPointV07Simulations: await create2(
      runtimeDeployment(accountAbstractionArtifact("EntryPointSimulations", "0.7").deployedBytecode),
    ),
  });

  if (existing && sameRoot) {
    const complete = existing.entryPoint && existing.entryPointV07 && existing.paymasterFactory;
    if (complete && existing.entryPointSimulations && existing.entryPointV07Simulations)
      return { manifest: existing, reused: true, chainReset };
    // A manifest from before the EntryPoints, the smart wallets or the simulations: the root stays, they join it.
    const entryPoint = existing.entryPoint ?? (await deployEntryPoint());
    const entryPointV07 = existing.entryPointV07 ?? (await deployEntryPointV07());
    const manifest = {
      ...existing,
      entryPoint,
      entryPointV07,
      ...(await deploySmartWalletFactories(entryPoint)),
      ...(await deploySimulations()),
    };
    writeManifest(manifestPath, manifest);
    steps.remove();
    return { manifest, reused: true, chainReset };
  }

  const { systemFactory, implementations, features, modules } = await deployPlatformRoot((name, args) => {
    const { abi, bytecode } = build.contracts[name];
    return create2(args.length ? encodeDeployData({ abi, bytecode, args }) : bytecode);
  });
  // A root found already deployed (its manifest and steps lost, or from another chain's state) is indexed from genesis.
  const anchor =
    lastBlock && (await blockHash(lastBlock.number)) === lastBlock.hash
      ? lastBlock
      : { number: 0, hash: (await blockHash(0)) as Hex };
  // After the anchor: the index starts at the root's last block and follows these from there.
  const entryPoint = await deployEntryPoint();
  const entryPointV07 = await deployEntryPointV07();
  const { smartAccountFactory, paymasterFactory } = await deploySmartWalletFactories(entryPoint);
  const simulations = await deploySimulations();
  const manifest: DeploymentManifest = {
    chainId,
    buildHash: build.hash,
    systemFactory,
    entryPoint,
    entryPointV07,
    ...simulations,
    smartAccountFactory,
    paymasterFactory,
    implementations,
    features,
    modules,
    startBlock: Number(anchor.number),
    startBlockHash: anchor.hash as Hex,
    deployedAt: new Date().toISOString(),
  };
  writeManifest(manifestPath, manifest);
  steps.remove();
  return { manifest, reused: false, chainReset };
}

/**
 * Init code that deploys `runtime` as it is, without running its constructor: EntryPointSimulations' constructor
 * refuses deployment past block 100, and its runtime is written to run at the EntryPoint's address without its
 * constructor's state (its immutables unset), as it did as a state override.
 */
function runtimeDeployment(runtime: Hex): Hex {
  const length = size(runtime);
  if (length > 0xffff) throw new Error("runtime too large");
  // PUSH2 length, DUP1, PUSH1 12 (this prefix's size), PUSH1 0, CODECOPY, PUSH1 0, RETURN
  return concat([`0x61${length.toString(16).padStart(4, "0")}80600c6000396000f3`, runtime]);
}

function writeManifest(path: string, manifest: DeploymentManifest) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomically(path, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o644 });
}

/** For a given manifest that names no EntryPoint of a version: that version's canonical one, when the chain has it. */
export async function canonicalEntryPoint(
  rpcUrl: string,
  version: EntryPointVersion = "0.8",
): Promise<Address | undefined> {
  const address = version === "0.7" ? CANONICAL_ENTRY_POINT_V07 : CANONICAL_ENTRY_POINT;
  const client = createPublicClient({ transport: http(rpcUrl) });
  const code = await retrying(`eth_getCode of the EntryPoint v${version}`, () => client.getCode({ address }));
  return code && code !== "0x" ? address : undefined;
}
