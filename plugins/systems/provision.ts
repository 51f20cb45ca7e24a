// systems:provision: gives an organisation a ready system on a chain: funds its signer (embedded and test
// chains), then deploys the system through the transaction pipeline. Safe to run again at any point.
import { type Address, encodeFunctionData } from "viem";
import { SystemFactoryAbi } from "../../abis/SystemFactory.ts";
import { fundSigner } from "../../host/chain/fund-signer.ts";
import { TERMINAL_STATES } from "../../host/mutations/service.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import { ProvisionPayload } from "./organizations.ts";

export function provisionTask(ctx: PluginContext<"custody" | "deployment">) {
  return defineTask(ProvisionPayload, async ({ organizationId, chainId }) => {
    if (!ctx.chains.has(chainId)) throw new Error(`Chain ${chainId} is not served by this platform`);
    // In flight first: completion marks the request COMPLETED and the system ready in one transaction, so one of
    // the two checks always sees it and a second deployment is never submitted.
    if (await systemCreateInFlight(ctx, organizationId, chainId)) return;
    if (await readySystem(ctx, organizationId, chainId)) return;

    const signer = await ctx.custody.primaryAddress(organizationId);
    await fundSigner(ctx, ctx.chains.get(chainId), signer);
    await submitSystemCreate(ctx, organizationId, chainId, signer);
  });
}

/** The organisation's system.create request on the chain that has not reached a terminal state, if any. */
export function systemCreateInFlight(ctx: PluginContext, organizationId: string, chainId: number) {
  return ctx.db.platform
    .selectFrom("transactionRequests")
    .select("id")
    .where("organizationId", "=", organizationId)
    .where("chainId", "=", chainId)
    .where("kind", "=", "system.create")
    .where("status", "not in", [...TERMINAL_STATES])
    .executeTakeFirst();
}

/** Marks the organisation's chain pending and queues its system.create write (signed by `signer`). */
export async function submitSystemCreate(ctx: PluginContext, organizationId: string, chainId: number, signer: Address) {
  const pending = { status: "pending" as const, systemAddress: null, tokenFactoryAddress: null };
  await ctx.db.platform
    .insertInto("organizationChains")
    .values({ organizationId, chainId, ...pending })
    .onConflict((oc) => oc.columns(["organizationId", "chainId"]).doUpdateSet({ ...pending, updatedAt: new Date() }))
    .execute();
  return ctx.mutations.submit({
    organizationId,
    chainId,
    kind: "system.create",
    to: ctx.chains.get(chainId).deployment.systemFactory,
    data: encodeFunctionData({ abi: SystemFactoryAbi, functionName: "createSystem", args: [signer] }),
    createdBy: "platform",
  });
}

/** The organisation's system on the chain, when it is recorded ready and its code is there (not a reset chain). */
export async function readySystem(ctx: PluginContext, organizationId: string, chainId: number) {
  const existing = await ctx.db.platform
    .selectFrom("organizationChains")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .where("chainId", "=", chainId)
    .executeTakeFirst();
  if (existing?.status !== "ready" || !existing.systemAddress || !existing.contracts) return undefined;
  const code = await ctx.chains.get(chainId).client.getCode({ address: existing.systemAddress as Address });
  return code && code !== "0x" ? existing : undefined;
}
