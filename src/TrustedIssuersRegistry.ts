// Each system's trusted issuers registry: issuers added with their claim topics, topics updated, issuers removed.
import { ponder } from "ponder:registry";
import { trustedIssuer } from "ponder:schema";
import { METRICS } from "../domain/statistics/metrics.ts";
import { recordActivity } from "./activity.ts";
import { systemOf } from "./system-of.ts";
import { countStats } from "./system-stats.ts";

ponder.on("TrustedIssuersRegistry:TrustedIssuerAdded", async ({ event, context }) => {
  const registry = event.log.address;
  const system = await systemOf(context, registry);
  if (!system) return;
  const at = event.block.timestamp;
  const trusted = { claimTopics: [...event.args.claimTopics], active: true, addedAt: at, updatedAt: at };
  await context.db
    .insert(trustedIssuer)
    .values({ chainId: context.chain.id, registry, issuer: event.args.issuer, system, ...trusted })
    .onConflictDoUpdate(trusted);
  await countStats(context, system, at, [
    [METRICS.trustedIssuersAdded, 1],
    [METRICS.trustedIssuersActive, 1],
  ]);
  const { sender, issuer, claimTopics } = event.args;
  await recordActivity(context, event, {
    system,
    eventName: "TrustedIssuerAdded",
    sender,
    involved: [issuer],
    values: { issuer, claimTopics: claimTopics.join(",") },
  });
});

ponder.on("TrustedIssuersRegistry:ClaimTopicsUpdated", async ({ event, context }) => {
  const key = { chainId: context.chain.id, registry: event.log.address, issuer: event.args.issuer };
  const row = await context.db.find(trustedIssuer, key);
  if (!row) return;
  await context.db
    .update(trustedIssuer, key)
    .set({ claimTopics: [...event.args.claimTopics], updatedAt: event.block.timestamp });
  const { sender, issuer, claimTopics } = event.args;
  await recordActivity(context, event, {
    system: row.system,
    eventName: "ClaimTopicsUpdated",
    sender,
    involved: [issuer],
    values: { issuer, claimTopics: claimTopics.join(",") },
  });
});

ponder.on("TrustedIssuersRegistry:TrustedIssuerRemoved", async ({ event, context }) => {
  const key = { chainId: context.chain.id, registry: event.log.address, issuer: event.args.issuer };
  const row = await context.db.find(trustedIssuer, key);
  if (!row) return;
  const at = event.block.timestamp;
  await context.db.update(trustedIssuer, key).set({ active: false, claimTopics: [], updatedAt: at });
  await countStats(context, row.system, at, [
    [METRICS.trustedIssuersRemoved, 1],
    [METRICS.trustedIssuersActive, -1],
  ]);
  await recordActivity(context, event, {
    system: row.system,
    eventName: "TrustedIssuerRemoved",
    sender: event.args.sender,
    involved: [event.args.issuer],
    values: { issuer: event.args.issuer },
  });
});
