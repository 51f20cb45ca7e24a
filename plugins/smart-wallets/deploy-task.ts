// smart-wallets:deploy: a wallet's deployment on its chain as resumable steps, each a chain write of the
// organisation's primary wallet through the transaction pipeline (deploy-step-write.ts); every step first checks
// whether the chain already has its effect, so a run resumes at the wallet's recorded step.
//   sponsorship       deploy-sponsorship-step.ts (sponsored wallets only)
//   account           deploy-account-step.ts
//   identity-key      deploy-identity-steps.ts (when the participant has an identity)
//   identity-registry deploy-identity-steps.ts
import { fundSigner } from "../../host/chain/fund-signer.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import { accountStep } from "./deploy-account-step.ts";
import { identityStep } from "./deploy-identity-steps.ts";
import { sponsorshipStep } from "./deploy-sponsorship-step.ts";
import { type DeployContext, StepFailed, StepPending, stepWrite, waitForWrite } from "./deploy-step-write.ts";
import { WalletDeployPayload } from "./jobs.ts";
import { type DeploymentStep, walletsDb } from "./tables.ts";

export { DEPLOY_STEP_KIND } from "./deploy-step-write.ts";

const STEPS = ["sponsorship", "account", "identity-key", "identity-registry"] as const satisfies DeploymentStep[];

export function deployTask(ctx: DeployContext) {
  const db = walletsDb(ctx.db.platform);
  const write = stepWrite(ctx);
  const setStep = (chainId: number, address: string, values: Record<string, unknown>) =>
    db
      .updateTable("smartWallets")
      .set({ ...values, updatedAt: new Date() })
      .where("chainId", "=", chainId)
      .where("address", "=", address)
      .execute();

  return defineTask(WalletDeployPayload, async ({ chainId, wallet: address }) => {
    const wallet = await db
      .selectFrom("smartWallets")
      .selectAll()
      .where("address", "=", address)
      .$if(chainId !== undefined, (q) => q.where("chainId", "=", chainId!))
      .executeTakeFirst();
    if (!wallet || wallet.step === "deployed" || wallet.step === "failed") return;
    const on = ctx.chains.get(wallet.chainId); // throws (the run is retried) on a chain no longer served
    const owner = await ctx.custody.primaryAddress(wallet.organizationId);
    await fundSigner(ctx, on, owner);
    const run = { ctx, write, on, wallet, owner };
    for (const step of STEPS.slice(STEPS.indexOf(wallet.step as (typeof STEPS)[number]))) {
      try {
        if (step === "sponsorship") {
          if (wallet.sponsored) await sponsorshipStep(run);
        } else if (step === "account") await accountStep(run);
        else await identityStep(run, step);
      } catch (error) {
        if (error instanceof StepPending) return waitForWrite(ctx, error);
        if (!(error instanceof StepFailed)) throw error; // the run is retried with backoff
        await setStep(wallet.chainId, address, { step: "failed", failedStep: step, failure: error.message });
        return;
      }
      await setStep(wallet.chainId, address, { step: STEPS[STEPS.indexOf(step) + 1] ?? "deployed" });
    }
  });
}
