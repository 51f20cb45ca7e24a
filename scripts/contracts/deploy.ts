// Deploys the platform's root once per chain (CREATE2, so the address is fixed by the build) and keeps
// a manifest that later starts reuse.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import {
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { accountAbstractionArtifact, CANONICAL_ENTRY_POINT, ENTRY_POINT_SALT } from "../../host/chain/entry-point.ts";
import type { BuildOutput } from "./compile.ts";
import { deployPlatformRoot, type PlatformRoot } from "./platform-contracts.ts";

/** The deterministic-deployment proxy present on anvil and most EVM chains. */
export const CREATE2_DEPLOYER: Address = "0x4e59b44847b379578588920cA78FbF26c0B4956C";
const SALT = keccak256(toHex("asset-platform/v1"));

export interface DeploymentManifest {
  chainId: number;
  buildHash: string;
  systemFactory: Address;
  /** ERC-4337 EntryPoint v0.8 (the bundler's); absent from manifests written before it was deployed. */
  entryPoint?: Address;
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
}): Promise<{ manifest: DeploymentManifest; reused: boolean; chainReset: boolean }> {
  const { rpcUrl, chainId, build, manifestPath } = options;
  const chain = {
    id: chainId,
    name: `chain${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  };
  const client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 100 });

  const existing = readManifest(manifestPath);
  let chainReset = false;
  let sameRoot = false;
  if (existing && existing.chainId === chainId) {
    const anchor = await client.getBlock({ blockNumber: BigInt(existing.startBlock) }).catch(() => undefined);
    const code = await client.getCode({ address: existing.systemFactory });
    const sameChain = anchor?.hash === existing.startBlockHash && !!code && code !== "0x";
    chainReset = !sameChain;
    sameRoot = sameChain && existing.buildHash === build.hash;
  }

  const account = privateKeyToAccount(options.deployerKey);
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  // One transaction at a time, each mined before the next (anvil stalls on out-of-order nonces).
  let lastBlock: { number: bigint; hash: Hex } | undefined;
  async function create2(initCode: Hex, salt: Hex = SALT): Promise<Address> {
    const address = getContractAddress({ opcode: "CREATE2", from: CREATE2_DEPLOYER, salt, bytecode: initCode });
    const code = await client.getCode({ address });
    if (code && code !== "0x") return address;
    const deployerCode = await client.getCode({ address: CREATE2_DEPLOYER });
    if (!deployerCode || deployerCode === "0x") {
      throw new Error(`The CREATE2 deployer ${CREATE2_DEPLOYER} is missing on chain ${chainId}`);
    }
    const hash = await wallet.sendTransaction({ to: CREATE2_DEPLOYER, data: concat([salt, initCode]) });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`CREATE2 deployment reverted (${hash})`);
    lastBlock = { number: receipt.blockNumber, hash: receipt.blockHash };
    return address;
  }
  // The package's EntryPoint at its canonical address (found there if the chain has it already).
  const deployEntryPoint = () => create2(accountAbstractionArtifact("EntryPoint").bytecode, ENTRY_POINT_SALT);
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

  if (existing && sameRoot) {
    if (existing.entryPoint && existing.paymasterFactory) return { manifest: existing, reused: true, chainReset };
    // A manifest from before the EntryPoint or the smart wallets: the root stays, they join it.
    const entryPoint = existing.entryPoint ?? (await deployEntryPoint());
    const manifest = { ...existing, entryPoint, ...(await deploySmartWalletFactories(entryPoint)) };
    writeManifest(manifestPath, manifest);
    return { manifest, reused: true, chainReset };
  }

  const { systemFactory, implementations, features, modules } = await deployPlatformRoot((name, args) => {
    const { abi, bytecode } = build.contracts[name];
    return create2(args.length ? encodeDeployData({ abi, bytecode, args }) : bytecode);
  });
  // A root found already deployed (its manifest lost) is indexed from genesis.
  const anchor = lastBlock ?? (await client.getBlock({ blockNumber: 0n }));
  // After the anchor: the index starts at the root's last block and follows these from there.
  const entryPoint = await deployEntryPoint();
  const { smartAccountFactory, paymasterFactory } = await deploySmartWalletFactories(entryPoint);
  const manifest: DeploymentManifest = {
    chainId,
    buildHash: build.hash,
    systemFactory,
    entryPoint,
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
  return { manifest, reused: false, chainReset };
}

function writeManifest(path: string, manifest: DeploymentManifest) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** For a given manifest that names no EntryPoint: the canonical v0.8 one, when the chain has it. */
export async function canonicalEntryPoint(rpcUrl: string): Promise<Address | undefined> {
  const code = await createPublicClient({ transport: http(rpcUrl) }).getCode({ address: CANONICAL_ENTRY_POINT });
  return code && code !== "0x" ? CANONICAL_ENTRY_POINT : undefined;
}
