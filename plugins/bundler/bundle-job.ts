// The bundling run of an organisation on the served chain: one graphile-worker job, keyed and queued per
// organisation and chain, so operations that arrive while it waits fold into one run (one handleOps) and two runs
// never overlap. Auto mode wakes it on each accepted operation; manual mode only on debug_bundler_sendBundleNow.

import type { PluginContext } from "../../host/plugin.ts";
import type { KeyedJob } from "../../host/worker/keyed-jobs.ts";
import { bundlerDb } from "./tables.ts";

export const BUNDLE_TASK = "bundler:bundle";

export function bundleJob(chainId: number, organizationId: string): KeyedJob {
  const name = `bundler:${chainId}:${organizationId}`;
  return { task: BUNDLE_TASK, payload: { chainId, organizationId }, queueName: name, jobKey: name };
}

export async function bundlingMode(ctx: PluginContext): Promise<"auto" | "manual"> {
  const row = await bundlerDb(ctx.db.platform)
    .selectFrom("bundlerSettings")
    .select("bundlingMode")
    .where("chainId", "=", ctx.chain.chainId)
    .executeTakeFirst();
  return row?.bundlingMode ?? "auto";
}

/** Queues the organisation's bundling run, in auto mode (or always, with `force`). */
export async function wakeBundler(ctx: PluginContext, organizationId: string, force = false) {
  if (!force && (await bundlingMode(ctx)) === "manual") return;
  const { task, payload, ...options } = bundleJob(ctx.chain.chainId, organizationId);
  await ctx.addJob(task, payload, options);
}
