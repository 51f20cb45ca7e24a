// How a deployment step writes: through the transaction pipeline, keyed (wallet, step, attempt) so a retried run
// attaches to the write it queued before. A run never waits for a write: StepPending ends it, and the write's end
// queues the next run (SubmitInput.wakeJob).
import type { Address, Hex } from "viem";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { TERMINAL_STATES } from "../../host/mutations/service.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { addKeyedJob } from "../../host/worker/keyed-jobs.ts";
import { deployJob } from "./jobs.ts";
import type { SmartWalletSettings } from "./settings.ts";
import type { SmartWalletRow } from "./tables.ts";

export const DEPLOY_STEP_KIND = "smart-wallet.deployment-step";
/** A run after a pending write, should its wake-up be lost: the write's end normally queues the next run at once. */
const STAND_BY_RUN_MS = 30_000;

export type DeployContext = PluginContext<"custody" | "deployment", SmartWalletSettings>;

/** The step's write failed: the wallet's deployment fails at that step. */
export class StepFailed extends Error {}

/** The step's write is queued or on its way: the run ends here and resumes when it ends. */
export class StepPending extends Error {
  constructor(
    readonly wallet: SmartWalletRow,
    readonly requestId: string,
  ) {
    super(`Waiting for request ${requestId}`);
  }
}

export type StepWrite = (
  wallet: SmartWalletRow,
  step: string,
  call: { from: Address; to: Address; data: Hex; value?: bigint },
) => Promise<void>;

/** What a deployment step works with: its context, how it writes, the wallet's chain, the wallet and its owner key. */
export interface StepRun {
  ctx: DeployContext;
  write: StepWrite;
  on: ServedChain;
  wallet: SmartWalletRow;
  owner: Address;
}

/**
 * Queues (or finds again) the step's write: done when it completed, StepFailed when it failed, else StepPending
 * (the run ends; the write's end queues the next run: its wakeJob).
 */
export function stepWrite(ctx: DeployContext): StepWrite {
  return async (wallet, step, call) => {
    const request = await ctx.mutations.submit({
      organizationId: wallet.organizationId,
      chainId: wallet.chainId,
      kind: DEPLOY_STEP_KIND,
      to: call.to,
      data: call.data,
      value: call.value,
      from: call.from,
      createdBy: wallet.participantId,
      idempotencyKey: `smart-wallet:${wallet.address}:${step}:${wallet.attempt}`,
      wakeJob: deployJob(wallet.chainId, wallet.address),
    });
    if (!TERMINAL_STATES.has(request.status)) throw new StepPending(wallet, request.id);
    if (request.status !== "COMPLETED") throw new StepFailed(`${step}: ${request.errorMessage ?? request.status}`);
  };
}

/**
 * Ends a run whose step waits for its write: the write's end wakes the next run; a later run stands by in case the
 * request ended before this run's job was released (the wake then replaced by this one: re-added at once).
 */
export async function waitForWrite(ctx: DeployContext, pending: StepPending): Promise<void> {
  const { wallet, requestId } = pending;
  const job = deployJob(wallet.chainId, wallet.address);
  await addKeyedJob(ctx.db.platform, { ...job, runAt: new Date(Date.now() + STAND_BY_RUN_MS) });
  const request = await ctx.mutations.find(wallet.organizationId, requestId);
  if (!request || TERMINAL_STATES.has(request.status)) await addKeyedJob(ctx.db.platform, job);
}

/** Records an address the organisation's wallets list holds (a paymaster, a smart wallet), once. */
export async function recordWallet(
  ctx: DeployContext,
  row: { address: string; organizationId: string; userId: string | null; kind: "paymaster" | "smart-wallet" },
): Promise<void> {
  await ctx.db.platform
    .insertInto("wallets")
    .values({ ...row, derivationPath: "" })
    .onConflict((oc) => oc.column("address").doNothing())
    .execute();
}
