// Moving the active organisation's keys to the HSM (key-move-task.ts), for the platform operator: the HSM and the
// workers are the platform's, so no organisation role may start it. `npm run cli -- custody migrate` does the same.
import { createRoute, z } from "@hono/zod-openapi";
import { requirePermission } from "../../host/auth/require-permission.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonResponse, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { findKeyMigration, requestKeyMigration } from "./migration-store.ts";
import { type CustodyMigrationRow, MIGRATION_STEPS } from "./tables.ts";

const MigrationSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    status: z.enum(["running", "succeeded", "failed"]),
    step: z.enum(MIGRATION_STEPS).openapi({
      description:
        "keys (successors created in the HSM), grants (the old keys' roles and identity keys granted to them), " +
        "funding, switch (new writes signed by the successors), drain (the old keys' writes in flight finish), " +
        "revocations (each old key renounces its roles, removes its identity keys and hands its contract " +
        "identities and paymaster to its successor), reissue (the claims the old keys signed are signed again by " +
        "their successors, then the old keys' claim keys removed), signers (each smart wallet the old key alone " +
        "approves replaces it by its successor), done",
    }),
    keys: z
      .array(z.object({ path: z.string(), oldAddress: z.string(), newAddress: z.string() }))
      .openapi({ description: "Each key and its successor in the HSM, once created" }),
    transactionIds: z.record(z.string(), z.array(z.string())).openapi({
      description: "The transaction requests of the grants, funding, revocations, reissue and signers steps",
    }),
    walletsLeft: z
      .array(
        z.object({
          chainId: z.number().int(),
          address: z.string(),
          signer: z.string().openapi({ description: "The old key, still a signer of the wallet" }),
          successor: z.string(),
          weight: z.string(),
          threshold: z.string(),
          reason: z.enum(["below-threshold", "not-operated"]).openapi({
            description:
              "below-threshold: the old key's weight alone does not reach the wallet's threshold; not-operated: " +
              "the platform sends the wallet's operations only for its owner participant, and the key is not theirs",
          }),
        }),
      )
      .openapi({
        description:
          "Smart wallets whose old signer the move left for the wallets' participants to replace (addSigner, " +
          "removeSigner through the wallet's own operation)",
      }),
    claimsLeft: z
      .array(z.object({ chainId: z.number().int(), holder: z.string(), claimId: z.string(), signer: z.string() }))
      .openapi({
        description:
          "Claims signed by an old key that no key of the organisation may add again to their holder identity: " +
          "that old key keeps its claim key on the issuer identity, so they stay valid",
      }),
    error: z.string().nullable().openapi({ description: "Why the move failed; request it again to resume" }),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("CustodyMigration");

const envelope = z.object({ data: MigrationSchema, links: linksSelf });
const DESCRIPTION =
  "Needs the platform operator's platform:operate permission (a platform-level role no organisation role grants).";

const startMigration = createRoute({
  method: "post",
  path: "/api/v2/custody/migrations",
  tags: ["custody"],
  summary: "Move the active organisation's keys from software custody to the HSM",
  description:
    "Creates the organisation's keys in the HSM, grants them the old keys' on-chain roles and funds them through the " +
    "transaction pipeline, switches new writes to them, lets the old keys' writes in flight finish, then has each " +
    "old key renounce its roles, has the claims the old keys signed signed again by their successors, and replaces " +
    "the old keys as signers of the smart wallets they alone approve. Answers the move already running, or resumes a failed one. A write repeated with " +
    `its Idempotency-Key after the switch answers the first one. ${DESCRIPTION}`,
  middleware: [requirePermission("platform:operate", "OFFCHAIN_USER_PERMISSION_REQUIRED")],
  responses: {
    200: jsonResponse(envelope, "The move already running"),
    201: jsonResponse(envelope, "The move, started (or resumed); its steps run in the workers"),
    ...errorResponses,
  },
});

const readMigration = createRoute({
  method: "get",
  path: "/api/v2/custody/migrations/{migrationId}",
  tags: ["custody"],
  summary: "Read a move of the organisation's keys to the HSM",
  description: `Its step, status, keys and transaction requests. ${DESCRIPTION}`,
  middleware: [requirePermission("platform:operate", "OFFCHAIN_USER_PERMISSION_REQUIRED")],
  request: { params: z.object({ migrationId: z.string().min(1).max(64) }) },
  responses: { 200: jsonResponse(envelope, "The move"), ...errorResponses },
});

export function migrationView(row: CustodyMigrationRow): z.infer<typeof MigrationSchema> {
  return {
    id: row.id,
    organizationId: row.organizationId,
    status: row.status,
    step: row.step,
    keys: (row.detail.keys ?? []).map(({ path, oldAddress, newAddress }) => ({ path, oldAddress, newAddress })),
    transactionIds: Object.fromEntries(Object.entries(row.detail.requests ?? {})),
    walletsLeft: row.detail.walletsLeft ?? [],
    claimsLeft: row.detail.claimsLeft ?? [],
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function migrationRoutes(app: App, ctx: PluginContext<"custody">) {
  const db = ctx.db.platform;
  app.openapi(startMigration, async (c) => {
    const { organizationId, userId } = c.get("principal");
    const { migration, started } = await requestKeyMigration(db, {
      organizationId,
      requestedBy: userId,
      hsm: ctx.custody.provider === "pkcs11",
    });
    return started
      ? c.json(single(c, migrationView(migration)), 201)
      : c.json(single(c, migrationView(migration)), 200);
  });
  app.openapi(readMigration, async (c) => {
    const row = await findKeyMigration(db, c.get("principal").organizationId, c.req.valid("param").migrationId);
    return c.json(single(c, migrationView(row)), 200);
  });
}
