// Compiles contracts/ with solc-js (offline). The output ships in abis/build.json (`npm run build:contracts`), so a
// fresh install never compiles; a working copy whose sources changed since compiles once and caches by source hash.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import type { Abi, Hex } from "viem";
import { ADDON_CONTRACTS, FEATURE_CONTRACTS } from "./platform-contracts.ts";

const require = createRequire(import.meta.url);
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "../..");
const CONTRACTS_DIR = join(ROOT, "contracts");
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
} as const;

export interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
}
export interface BuildOutput {
  hash: string;
  solcVersion: string;
  contracts: Record<string, CompiledContract>;
}

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listSources(path);
    return entry.name.endsWith(".sol") ? [path] : [];
  });
}

function packageVersion(name: string): string {
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")).version;
}

/** Hash of everything that decides the bytecode: our sources, the libraries' and compiler's versions, settings. */
export function sourceHash(): string {
  const hash = createHash("sha256");
  for (const file of listSources(CONTRACTS_DIR).sort()) {
    hash.update(relative(ROOT, file)).update(readFileSync(file));
  }
  for (const pkg of [
    "solc",
    "@openzeppelin/contracts",
    "@openzeppelin/contracts-upgradeable",
    "@account-abstraction/contracts",
  ]) {
    hash.update(`${pkg}@${packageVersion(pkg)}`);
  }
  hash.update(JSON.stringify(SETTINGS));
  return hash.digest("hex").slice(0, 16);
}

function findImport(path: string): { contents: string } | { error: string } {
  for (const candidate of [join(ROOT, path), join(ROOT, "node_modules", path)]) {
    if (existsSync(candidate)) return { contents: readFileSync(candidate, "utf8") };
  }
  return { error: `File not found: ${path}` };
}

/** The compiled output committed with the sources (generated, like the ABIs beside it). */
export const SHIPPED_BUILD = join(ROOT, "abis", "build.json");

/** The shipped build, when it was compiled from the sources as they are now. */
function shippedBuild(hash: string): BuildOutput | undefined {
  if (!existsSync(SHIPPED_BUILD)) return undefined;
  const build = JSON.parse(readFileSync(SHIPPED_BUILD, "utf8")) as BuildOutput;
  return build.hash === hash ? build : undefined;
}

/** The shipped build's text: one contract a line, so a change to one contract is one line of the diff. */
export function shippedBuildText(build: BuildOutput): string {
  const contracts = Object.keys(build.contracts)
    .sort()
    .map((name) => `    ${JSON.stringify(name)}: ${JSON.stringify(build.contracts[name])}`);
  const head = `  "hash": ${JSON.stringify(build.hash)},\n  "solcVersion": ${JSON.stringify(build.solcVersion)},\n`;
  return `{\n${head}  "contracts": {\n${contracts.join(",\n")}\n  }\n}\n`;
}

/**
 * The build of contracts/ as they are: the shipped one while it matches the sources, else the cached one, else
 * compiled now (and cached). `fresh` compiles regardless, to check what ships.
 */
export function compileContracts(options: { fresh?: boolean; cacheDir?: string } = {}): BuildOutput {
  const hash = sourceHash();
  if (!options.fresh) {
    const shipped = shippedBuild(hash);
    if (shipped) return shipped;
  }
  const cacheDir = options.cacheDir ?? join(ROOT, "node_modules/.cache/contracts");
  const cacheFile = join(cacheDir, `build-${hash}.json`);
  if (!options.fresh && existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, "utf8"));

  const solc = require("solc");
  const sources = Object.fromEntries(
    listSources(CONTRACTS_DIR).map((file) => [relative(ROOT, file), { content: readFileSync(file, "utf8") }]),
  );
  const input = { language: "Solidity", sources, settings: SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  if (errors.length > 0) {
    throw new Error(
      `Solidity compilation failed:\n${errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n")}`,
    );
  }
  const contracts: Record<string, CompiledContract> = {};
  for (const [file, byName] of Object.entries<Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>(
    output.contracts,
  )) {
    if (!file.startsWith("contracts/")) continue;
    for (const [name, artifact] of Object.entries(byName)) {
      contracts[name] = { abi: artifact.abi, bytecode: `0x${artifact.evm.bytecode.object}` };
    }
  }
  const build: BuildOutput = { hash, solcVersion: solc.version(), contracts };
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(build));
  return build;
}

/** The `abis/` module text for one contract: an `as const` ABI that viem and Ponder type from. */
export function abiModule(name: string, abi: Abi): string {
  return `// Generated by \`npm run build:contracts\` from contracts/. Do not edit.\nexport const ${name}Abi = ${JSON.stringify(abi, null, 2)} as const;\n`;
}

/** `abis/index.ts`: every published ABI in one list, for decoding any platform calldata or revert. */
export function abiIndexModule(): string {
  const imports = PUBLISHED_ABIS.map((name) => `import { ${name}Abi } from "./${name}.ts";`).join("\n");
  const list = PUBLISHED_ABIS.map((name) => `  ${name}Abi,`).join("\n");
  return `// Generated by \`npm run build:contracts\` from contracts/. Do not edit.\n${imports}\n\nexport const PLATFORM_ABIS = [\n${list}\n] as const;\n`;
}

/**
 * `abis/catalogue.ts`: the ABIs the index merges into one source each, from the registrations: every feature's (the
 * TokenFeature source) and every add-on's instance (the AddonInstance source), as `as const` tuples Ponder types from.
 */
export function abiCatalogueModule(): string {
  const features = Object.values(FEATURE_CONTRACTS);
  const instances = Object.values(ADDON_CONTRACTS).map(({ instance }) => instance);
  const imports = [...features, ...instances].map((name) => `import { ${name}Abi } from "./${name}.ts";`).join("\n");
  const list = (names: readonly string[]) => names.map((name) => `  ${name}Abi,`).join("\n");
  return (
    `// Generated by \`npm run build:contracts\` from the feature catalogue and ADDON_CONTRACTS. Do not edit.\n${imports}\n\n` +
    `/** Every token feature's ABI (domain/features/catalogue.ts), in the catalogue's order. */\n` +
    `export const FEATURE_ABIS = [\n${list(features)}\n] as const;\n\n` +
    `/** Every add-on's instance ABI (scripts/contracts/platform-contracts.ts ADDON_CONTRACTS). */\n` +
    `export const ADDON_INSTANCE_ABIS = [\n${list(instances)}\n] as const;\n`
  );
}

/** Contracts whose ABIs the index and host use. */
export const PUBLISHED_ABIS: readonly string[] = [
  "SystemFactory",
  "System",
  "TokenFactory",
  "Token",
  // Every feature of the catalogue (domain/features/catalogue.ts)
  ...Object.values(FEATURE_CONTRACTS),
  "SystemAccessManager",
  "Directory",
  "Compliance",
  "IdentityFactory",
  "Identity",
  "IdentityRegistry",
  "IdentityRegistryStorage",
  "TrustedIssuersRegistry",
  "TrustedIssuersMetaRegistry",
  "TopicSchemeRegistry",
  "TokenFactoryRegistry",
  "ComplianceModuleRegistry",
  "AddonRegistry",
  "ExternalTokenRegistry",
  "ExchangeRateFeedRegistry",
  "ExchangeRateFeed",
  "AddressBlockListModule",
  "CapitalRaiseLimitModule",
  "CappedModule",
  "CollateralModule",
  "CountryAllowListModule",
  "CountryBlockListModule",
  "IdentityAllowListModule",
  "IdentityBlockListModule",
  "IdentityVerificationModule",
  "InvestorCountModule",
  "TimeLockModule",
  "TransferApprovalModule",
  // Smart wallets (ERC-4337 v0.8)
  "WeightedMultisigAccount",
  "WeightedMultisigAccountFactory",
  "SponsoringPaymaster",
  "SponsoringPaymasterFactory",
  // Every add-on's factory and instance (ADDON_CONTRACTS)
  ...Object.values(ADDON_CONTRACTS).flatMap(({ factory, instance }) => [factory, instance]),
];
