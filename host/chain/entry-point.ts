// ERC-4337 EntryPoints v0.8 (@account-abstraction/contracts 0.8.0) and v0.7 (0.7.0, installed as
// @account-abstraction/contracts-v07): their artifacts (the EntryPoint the platform deploys, EntryPointSimulations the
// bundler runs in eth_call) and each one's canonical CREATE2 salt, which puts it at the address every chain and
// client knows when the artifact is the one the authors deployed (the releases ship exactly those).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Abi, Address, Hex } from "viem";

const require = createRequire(import.meta.url);

export interface Artifact {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
}

export type EntryPointVersion = "0.7" | "0.8";

const PACKAGES: Record<EntryPointVersion, string> = {
  "0.8": "@account-abstraction/contracts",
  "0.7": "@account-abstraction/contracts-v07",
};

/** An artifact of a release (v0.8 by default), e.g. `EntryPoint`, `EntryPointSimulations`, `SimpleAccountFactory`. */
export function accountAbstractionArtifact(name: string, version: EntryPointVersion = "0.8"): Artifact {
  const path = require.resolve(`${PACKAGES[version]}/artifacts/${name}.json`);
  const { abi, bytecode, deployedBytecode } = JSON.parse(readFileSync(path, "utf8"));
  return { abi, bytecode, deployedBytecode };
}

/** The salt of the v0.8 EntryPoint's deployment through the deterministic-deployment proxy. */
export const ENTRY_POINT_SALT: Hex = "0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9";
export const CANONICAL_ENTRY_POINT: Address = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";

/** The same for v0.7 (its artifact and this salt give 0x0000000071727De22E5E9d8BAf0edAc6f37da032). */
export const ENTRY_POINT_V07_SALT: Hex = "0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3";
export const CANONICAL_ENTRY_POINT_V07: Address = "0x0000000071727De22E5E9d8BAf0edAc6f37da032";
