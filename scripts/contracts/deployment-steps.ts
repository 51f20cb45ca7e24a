// The deployment's progress, step by step, beside its manifest (`<chainId>.steps.json`) until the manifest is written:
// each contract's transaction (hash and nonce) before it is sent, then the block that mined it. A deployment stopped
// midway (a flaky node, a Ctrl-C) resumes from it: a contract already there is skipped, one whose transaction was
// signed is signed again at the same nonce (so never two transactions land), and the index's start block is known.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import type { Address, Hex } from "viem";
import { writeFileAtomically } from "../infra/atomic-file.ts";

export interface DeploymentStep {
  transaction?: { hash: Hex; nonce: number };
  /** Once mined. */
  block?: { number: number; hash: Hex };
}

export interface DeploymentSteps {
  path: string;
  get(address: Address): DeploymentStep | undefined;
  record(address: Address, step: DeploymentStep): void;
  /** The deployment is complete (its manifest written): the steps are no longer needed. */
  remove(): void;
}

export function stepsPath(manifestPath: string): string {
  return manifestPath.replace(/(\.json)?$/, ".steps.json");
}

export function openDeploymentSteps(manifestPath: string, chainId: number): DeploymentSteps {
  const path = stepsPath(manifestPath);
  let steps: Record<string, DeploymentStep> = {};
  if (existsSync(path)) {
    const saved = JSON.parse(readFileSync(path, "utf8")) as { chainId: number; steps: Record<string, DeploymentStep> };
    if (saved.chainId === chainId) steps = saved.steps;
  }
  return {
    path,
    get: (address) => steps[address.toLowerCase()],
    record(address, step) {
      steps[address.toLowerCase()] = step;
      mkdirSync(dirname(path), { recursive: true });
      writeFileAtomically(path, `${JSON.stringify({ chainId, steps }, null, 2)}\n`);
    },
    remove: () => rmSync(path, { force: true }),
  };
}
