// ERC-4337 EntryPoint v0.8 from @account-abstraction/contracts 0.8.0: its artifacts (the EntryPoint the platform
// deploys, EntryPointSimulations the bundler runs in eth_call) and the canonical CREATE2 salt, which puts it at the
// address every chain and client knows (0x4337084D…Ff108) when the artifact is the one the authors deployed.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Abi, Address, Hex } from "viem";

const require = createRequire(import.meta.url);

export interface Artifact {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
}

/** An artifact of the package, e.g. `EntryPoint`, `EntryPointSimulations`, `SimpleAccountFactory`. */
export function accountAbstractionArtifact(name: string): Artifact {
  const path = require.resolve(`@account-abstraction/contracts/artifacts/${name}.json`);
  const { abi, bytecode, deployedBytecode } = JSON.parse(readFileSync(path, "utf8"));
  return { abi, bytecode, deployedBytecode };
}

/** The salt of the v0.8 EntryPoint's deployment through the deterministic-deployment proxy. */
export const ENTRY_POINT_SALT: Hex = "0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9";
export const CANONICAL_ENTRY_POINT: Address = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";
