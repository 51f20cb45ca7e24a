// debug_bundler_sendBundleNow: runs the organisation's bundling on the request's chain now (whatever the mode) and
// answers the bundle's transaction hash once the pipeline has signed it (null when the mempool held nothing to
// bundle).
import type { Hex } from "viem";
import type { PluginContext } from "../../host/plugin.ts";
import { wakeBundler } from "./bundle-job.ts";
import { rpcError } from "./rpc-error.ts";
import { bundlerDb } from "./tables.ts";

const WAIT_MS = 20_000;

export async function sendBundleNow(ctx: PluginContext, chainId: number, organizationId: string): Promise<Hex | null> {
  const db = bundlerDb(ctx.db.platform);
  const pending = await db
    .selectFrom("bundlerUserOperations")
    .select("userOpHash")
    .where("chainId", "=", chainId)
    .where("organizationId", "=", organizationId)
    .where("status", "=", "pending")
    .orderBy("createdAt")
    .limit(1)
    .executeTakeFirst();
  if (!pending) return null;
  await wakeBundler(ctx, chainId, organizationId, true);
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const row = await db
      .selectFrom("bundlerUserOperations as o")
      .leftJoin("transactionRequests as r", "r.id", "o.transactionRequestId")
      .select(["o.status", "o.failureReason", "r.transactionHash"])
      .where("o.userOpHash", "=", pending.userOpHash)
      .executeTakeFirstOrThrow();
    if (row.transactionHash) return row.transactionHash as Hex;
    if (row.status === "failed") throw rpcError("BUNDLER_USER_OPERATION_REJECTED", row.failureReason ?? "failed");
    await new Promise((r) => setTimeout(r, 100));
  }
  throw rpcError("BUNDLER_INTERNAL_ERROR", "The bundle was not sent within 20 s");
}
