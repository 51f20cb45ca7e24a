// systems:deploy-organization: runs an organisation's deployment step by step (custody, funding, its system through
// the transaction pipeline, the index). Each step is safe to run again, so a crashed run resumes where it stopped;
// a step that fails records its public error (`wireError`) and ends the deployment as failed until the request
// that started it is repeated with the same Idempotency-Key (deployments.ts, resumeDeployment).
import { fundSigner } from "../../host/chain/fund-signer.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { publicError } from "../../host/errors/render.ts";
import { contractErrorCode } from "../../host/mutations/contract-error-codes.ts";
import { type ContractError, withErrorCode } from "../../host/mutations/contract-errors.ts";
import { TERMINAL_STATES } from "../../host/mutations/service.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import type { StepId } from "./deployment-steps.ts";
import { DeployPayload, finishDeployment, setStep } from "./deployments.ts";
import { requestSystemProvisioning } from "./organizations.ts";
import { readySystem, submitSystemCreate, systemCreateInFlight } from "./provision.ts";
import { type DeploymentRow, systemsDb } from "./tables.ts";

/** How long the system step follows its transaction, and the index step the index, before failing (resumable). */
const SYSTEM_WAIT_MS = 10 * 60_000;
const INDEX_WAIT_MS = 2 * 60_000;
const POLL_MS = 250;

type Detail = Record<string, unknown>;
interface StepRun {
  ctx: PluginContext<"custody" | "deployment">;
  deployment: DeploymentRow;
  /** What earlier steps produced, by node id. */
  done: Map<string, Detail>;
  /** Records what a running step has got so far (told to the streams as an update). */
  progress(detail: Detail): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const STEPS: Record<Exclude<StepId, "organization">, (run: StepRun) => Promise<Detail>> = {
  async custody({ ctx, deployment }) {
    const { organizationId } = deployment;
    const seed = await ctx.db.platform
      .selectFrom("custodySeeds")
      .select("organizationId")
      .where("organizationId", "=", organizationId)
      .executeTakeFirst();
    if (!seed) await ctx.custody.provisionOrganization(organizationId);
    const ownerWallet = await ctx.custody.provisionMemberWallet(organizationId, deployment.createdBy);
    return { signer: await ctx.custody.primaryAddress(organizationId), ownerWallet };
  },

  async funding({ ctx, deployment }) {
    if (!ctx.chains.has(deployment.chainId)) {
      throw new ApiError("CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION", { details: { chainId: deployment.chainId } });
    }
    const chain = ctx.chains.get(deployment.chainId);
    const signer = await ctx.custody.primaryAddress(deployment.organizationId);
    await fundSigner(ctx, chain, signer);
    return { signer, balance: String(await chain.client.getBalance({ address: signer })) };
  },

  async system({ ctx, deployment, progress }) {
    const { organizationId, chainId } = deployment;
    const ready = await readySystem(ctx, organizationId, chainId);
    if (ready) return { systemAddress: ready.systemAddress };
    const inFlight = await systemCreateInFlight(ctx, organizationId, chainId);
    const transactionId =
      inFlight?.id ??
      (await submitSystemCreate(ctx, organizationId, chainId, await ctx.custody.primaryAddress(organizationId))).id;
    await progress({ transactionId });
    const request = await ctx.mutations.waitForTerminal(organizationId, transactionId, Date.now() + SYSTEM_WAIT_MS);
    if (!request) throw new Error(`Transaction request ${transactionId} disappeared`);
    const submitted = { transactionId, transactionHash: request.transactionHash };
    if (request.status === "COMPLETED") {
      const result = (request.result ?? {}) as { systemAddress?: string };
      const systemAddress = result.systemAddress?.toLowerCase(); // as the platform records it
      return { ...submitted, blockNumber: String(request.blockNumber), systemAddress };
    }
    if (TERMINAL_STATES.has(request.status)) {
      const details = { transactionId, status: request.status };
      if (request.contractError) {
        const contractError = request.contractError as ContractError;
        throw new ApiError("CONTRACT_ERROR", {
          details: { ...details, ...contractErrorCode(contractError.id), contractError: withErrorCode(contractError) },
        });
      }
      throw new ApiError("ORGANIZATION_DEPLOYMENT_STEP_FAILED", {
        details: {
          ...details,
          nodeId: "system",
          reason: request.errorMessage ?? request.subStatus ?? request.status,
        },
      });
    }
    throw new ApiError("CONFIRMATION_TIMEOUT", { details: submitted });
  },

  async index({ ctx, deployment, done }) {
    const ready = await readySystem(ctx, deployment.organizationId, deployment.chainId);
    const systemAddress = (ready?.systemAddress ?? done.get("system")?.systemAddress) as string | undefined;
    if (!systemAddress) throw new Error("The system step recorded no system address");
    const deadline = Date.now() + INDEX_WAIT_MS;
    for (;;) {
      const indexed = await ctx.db
        .ledgerOn(deployment.chainId)
        .selectFrom("system")
        .select(["id", "blockNumber"])
        .where("id", "=", systemAddress.toLowerCase() as `0x${string}`)
        .executeTakeFirst();
      if (indexed) return { systemAddress, blockNumber: String(indexed.blockNumber) };
      if (Date.now() > deadline) {
        throw new ApiError("ORGANIZATION_DEPLOYMENT_STEP_FAILED", {
          details: { nodeId: "index", reason: "The Ledger Index has not indexed the system yet", systemAddress },
        });
      }
      await sleep(POLL_MS);
    }
  },
};

/** A failure as the public error object; an unexpected one is ORGANIZATION_DEPLOYMENT_STEP_FAILED with its reason. */
function wireErrorOf(error: unknown, nodeId: string) {
  if (error instanceof ApiError) return publicError(error);
  const reason = ((error as { shortMessage?: string }).shortMessage ?? String((error as Error)?.message ?? error))
    .split("\n")[0]
    .slice(0, 500);
  return publicError(new ApiError("ORGANIZATION_DEPLOYMENT_STEP_FAILED", { details: { nodeId, reason } }));
}

export function deployOrganizationTask(ctx: PluginContext<"custody" | "deployment">) {
  const db = ctx.db.platform;
  return defineTask(DeployPayload, async ({ deploymentId }) => {
    const sdb = systemsDb(db);
    const deployment = await sdb
      .selectFrom("organizationDeployments")
      .selectAll()
      .where("id", "=", deploymentId)
      .executeTakeFirst();
    if (deployment?.status !== "running") return; // finished, or failed and not resumed
    const rows = await sdb
      .selectFrom("organizationDeploymentSteps")
      .selectAll()
      .where("deploymentId", "=", deploymentId)
      .orderBy("position")
      .execute();
    const done = new Map(rows.filter((r) => r.status === "succeeded").map((r) => [r.nodeId, r.detail]));
    for (const row of rows) {
      const run = STEPS[row.nodeId as keyof typeof STEPS];
      if (!run || done.has(row.nodeId)) continue;
      const set = (change: Parameters<typeof setStep>[3]) => setStep(db, deploymentId, row.nodeId, change);
      await set({ status: "running", wireError: null });
      try {
        const detail = await run({ ctx, deployment, done, progress: (d) => set({ status: "running", detail: d }) });
        await set({ status: "succeeded", detail });
        done.set(row.nodeId, detail);
      } catch (error) {
        ctx.logger.warn("organisation deployment step failed", {
          deploymentId,
          nodeId: row.nodeId,
          error: error instanceof Error ? error.message : String(error),
        });
        await set({ status: "failed", wireError: wireErrorOf(error, row.nodeId) });
        await finishDeployment(db, deploymentId, "failed");
        return;
      }
    }
    await finishDeployment(db, deploymentId, "succeeded");
    // Its system on every other served chain, in the background: CHAIN_NOT_READY (pending) there until it is ready.
    for (const chainId of ctx.chains.ids.filter((id) => id !== deployment.chainId)) {
      await requestSystemProvisioning(db, deployment.organizationId, chainId);
    }
  });
}
