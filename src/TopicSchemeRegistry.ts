// Each system's topic scheme registry: claim topics registered (name and data signature), updated, removed.
import { ponder } from "ponder:registry";
import { topicScheme } from "ponder:schema";
import { METRICS } from "../host/stats/metrics.ts";
import { systemOf } from "./system-of.ts";
import { countStats } from "./system-stats.ts";

ponder.on("TopicSchemeRegistry:TopicSchemeRegistered", async ({ event, context }) => {
  const registry = event.log.address;
  const system = await systemOf(context, registry);
  if (!system) return;
  const { topicId, name, signature } = event.args;
  const at = event.block.timestamp;
  const scheme = { name, signature, active: true, registeredAt: at, updatedAt: at };
  await context.db
    .insert(topicScheme)
    .values({ registry, topicId, system, ...scheme })
    .onConflictDoUpdate(scheme);
  await countStats(context, system, at, [
    [METRICS.topicSchemesRegistered, 1],
    [METRICS.topicSchemesActive, 1],
  ]);
});

ponder.on("TopicSchemeRegistry:TopicSchemeUpdated", async ({ event, context }) => {
  const key = { registry: event.log.address, topicId: event.args.topicId };
  if (!(await context.db.find(topicScheme, key))) return;
  await context.db.update(topicScheme, key).set({ signature: event.args.signature, updatedAt: event.block.timestamp });
});

ponder.on("TopicSchemeRegistry:TopicSchemeRemoved", async ({ event, context }) => {
  const key = { registry: event.log.address, topicId: event.args.topicId };
  const row = await context.db.find(topicScheme, key);
  if (!row) return;
  const at = event.block.timestamp;
  await context.db.update(topicScheme, key).set({ active: false, updatedAt: at });
  await countStats(context, row.system, at, [
    [METRICS.topicSchemesRemoved, 1],
    [METRICS.topicSchemesActive, -1],
  ]);
});
