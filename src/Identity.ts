// Identities announced by the root, and their claims: each identity's ERC-735 events, revocations by issuer identities.
import { ponder } from "ponder:registry";
import { identity } from "ponder:schema";
import { METRICS } from "../domain/statistics/metrics.ts";
import { recordActivity } from "./activity.ts";
import { attachClaim, detachClaim, revokeClaim } from "./identity-claims.ts";
import { countStats } from "./system-stats.ts";

ponder.on("SystemFactory:IdentityCreated", async ({ event, context }) => {
  const { sender, system, account, identity: id, isContract } = event.args;
  const at = event.block.timestamp;
  await context.db.insert(identity).values({
    id,
    chainId: context.chain.id,
    system,
    account,
    isContract,
    registrations: 0,
    country: null,
    createdBy: sender,
    deployedInTransaction: event.transaction.hash,
    createdAt: at,
    lastActivityAt: at,
  });
  if (!isContract) await countStats(context, system, at, [[METRICS.userIdentitiesCreated, 1]]);
  await recordActivity(context, event, {
    system,
    eventName: "IdentityCreated",
    sender,
    account,
    involved: [id],
    values: { account, identity: id, isContract },
  });
});

ponder.on("Identity:ClaimAdded", ({ event, context }) => attachClaim(context, event, "ClaimAdded"));
ponder.on("Identity:ClaimChanged", ({ event, context }) => attachClaim(context, event, "ClaimChanged"));
ponder.on("Identity:ClaimRemoved", ({ event, context }) => detachClaim(context, event));
ponder.on("Identity:ClaimRevoked", ({ event, context }) => revokeClaim(context, event));
