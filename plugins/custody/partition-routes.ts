// Custody partitions over HTTP (host/custody/partitions.ts): their state, custodians' activation approvals (M of N,
// each with the custodian's own PIN code) and deactivation. The approval that reaches the quorum wakes the send runs
// of the organisation's writes waiting for it (AWAITING_CUSTODY_ACTIVATION).
import { createRoute, z } from "@hono/zod-openapi";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { verifyPincode } from "../../host/auth/wallet-verification.ts";
import {
  approveActivation,
  deactivatePartition,
  organizationPartition,
  type PartitionView,
  partitionView,
} from "../../host/custody/partitions.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonBody, linksSelf, WalletVerificationSchema } from "../../host/http/schemas.ts";
import { sendJobSpec } from "../../host/mutations/service.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { addKeyedJob } from "../../host/worker/keyed-jobs.ts";

const PartitionSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    provider: z.enum(["software", "pkcs11"]),
    state: z.enum(["inactive", "activating", "active", "expired"]).openapi({
      description: "Software custody's partition is always active; a pkcs11 one signs only while active",
    }),
    quorum: z.number().int().openapi({ description: "Distinct custodians' approvals an activation needs (M)" }),
    approvals: z.array(z.object({ userId: z.string(), approvedAt: z.string().openapi({ format: "date-time" }) })),
    expiresAt: z.string().nullable().openapi({ format: "date-time", description: "When the activation ends" }),
  })
  .openapi("CustodyPartition");

const envelope = z.object({ data: PartitionSchema, links: linksSelf });
const PartitionParams = z.object({ partitionId: z.string().min(1).max(64) });
const ok = (description: string) => ({ description, content: { "application/json": { schema: envelope } } });

const listPartitions = createRoute({
  method: "get",
  path: "/api/v2/custody/partitions",
  tags: ["custody"],
  summary: "List the organisation's custody partitions with their activation state",
  description:
    "The partition holding the organisation's keys: its state (inactive, activating, active, expired), the " +
    "approvals of the current activation round, the quorum and when the activation expires.",
  middleware: [requirePermission("custody:partitions:read")],
  responses: {
    200: {
      description: "The partitions",
      content: { "application/json": { schema: z.object({ data: z.array(PartitionSchema), links: linksSelf }) } },
    },
    ...errorResponses,
  },
});

const approve = createRoute({
  method: "post",
  path: "/api/v2/custody/partitions/{partitionId}/activation-approvals",
  tags: ["custody"],
  summary: "Approve the activation of a custody partition (one custodian's approval)",
  description:
    "Counts once per custodian in the current round (a repeat answers the same). The approval that reaches the " +
    "quorum activates the partition for CUSTODY_ACTIVATION_SECONDS and the writes waiting for it are signed. Needs " +
    "the custodian's own PIN code in walletVerification, with a session or an API key.",
  middleware: [requirePermission("custody:partitions:approve")],
  request: {
    params: PartitionParams,
    body: jsonBody(z.object({ walletVerification: WalletVerificationSchema }).strict().openapi("ActivationApproval")),
  },
  responses: { 200: ok("The partition after the approval"), ...errorResponses },
});

const deactivate = createRoute({
  method: "post",
  path: "/api/v2/custody/partitions/{partitionId}/deactivate",
  tags: ["custody"],
  summary: "Deactivate a custody partition at once",
  description:
    "Ends its activation and drops the approvals of a round in progress; its keys sign nothing until activated again.",
  middleware: [requirePermission("custody:partitions:deactivate")],
  request: { params: PartitionParams },
  responses: { 200: ok("The partition, inactive"), ...errorResponses },
});

export function partitionRoutes(app: App, ctx: PluginContext<"custody">) {
  const db = ctx.db.platform;
  const settings = { quorum: ctx.config.CUSTODY_ACTIVATION_QUORUM, seconds: ctx.config.CUSTODY_ACTIVATION_SECONDS };

  async function view(organizationId: string): Promise<PartitionView & { provider: "software" | "pkcs11" }> {
    const provider = await ctx.custody.providerOf(organizationId);
    const partition = await partitionView(db, await organizationPartition(db, organizationId), settings);
    // Software custody has no activation: its partition always signs (the embedded default's first hour).
    return provider === "software"
      ? { ...partition, provider, state: "active", expiresAt: null }
      : { ...partition, provider };
  }

  async function partitionOfCaller(organizationId: string, partitionId: string) {
    const partition = await organizationPartition(db, organizationId);
    if (partition.id !== partitionId) throw new ApiError("NOT_FOUND", { details: { partitionId } });
    return partition;
  }

  /** The send runs of the organisation's waiting writes, now that its partition signs. */
  async function wakeWaitingWrites(organizationId: string) {
    const signers = await db
      .selectFrom("transactionRequests")
      .select(["chainId", "fromAddress"])
      .distinct()
      .where("organizationId", "=", organizationId)
      .where("status", "=", "QUEUED")
      .where("executor", "=", "eoa")
      .execute();
    for (const { chainId, fromAddress } of signers) await addKeyedJob(db, sendJobSpec(chainId, fromAddress));
  }

  app.openapi(listPartitions, async (c) => {
    return c.json({ data: [await view(c.get("principal").organizationId)], links: { self: c.req.path } }, 200);
  });

  app.openapi(approve, async (c) => {
    const { organizationId, userId } = c.get("principal");
    const { partitionId } = c.req.valid("param");
    await verifyPincode(db, userId, c.req.valid("json").walletVerification);
    await partitionOfCaller(organizationId, partitionId);
    if (await approveActivation(db, partitionId, userId, settings)) await wakeWaitingWrites(organizationId);
    return c.json(single(c, await view(organizationId)), 200);
  });

  app.openapi(deactivate, async (c) => {
    const { organizationId } = c.get("principal");
    const { partitionId } = c.req.valid("param");
    await deactivatePartition(db, (await partitionOfCaller(organizationId, partitionId)).id);
    return c.json(single(c, await view(organizationId)), 200);
  });
}
