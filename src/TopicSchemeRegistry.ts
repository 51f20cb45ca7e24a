// Each system's topic scheme registry: claim topics registered (name and data signature), updated, removed.
import { type Context, ponder } from "ponder:registry";
import { topicScheme } from "ponder:schema";
import { METRICS } from "../domain/statistics/metrics.ts";
import { recordActivity } from "./activity.ts";
import type { LoggedEvent } from "./record-event.ts";
import { systemOf } from "./system-of.ts";
import { countStats } from "./system-stats.ts";

type SchemeEvent = LoggedEvent & {
  args: { sender: `0x${string}`; topicId: bigint; name: string; signature: string };
};

function logScheme(context: Context, event: SchemeEvent, system: `0x${string}`, eventName: string) {
  const { sender, topicId, name, signature } = event.args;
  return recordActivity(context, event, {
    system,
    eventName,
    sender,
    involved: [],
    values: { topicId, name, signature },
  });
}

ponder.on("TopicSchemeRegistry:TopicSchemeRegistered", async ({ event, context }) => {
  const registry = event.log.address;
  const system = await systemOf(context, registry);
  if (!system) return;
  const { topicId, name, signature } = event.args;
  const at = event.block.timestamp;
  const scheme = { name, signature, active: true, registeredAt: at, updatedAt: at };
  await context.db
    .insert(topicScheme)
    .values({ chainId: context.chain.id, registry, topicId, system, ...scheme })
    .onConflictDoUpdate(scheme);
  await countStats(context, system, at, [
    [METRICS.topicSchemesRegistered, 1],
    [METRICS.topicSchemesActive, 1],
  ]);
  await logScheme(context, event, system, "TopicSchemeRegistered");
});

ponder.on("TopicSchemeRegistry:TopicSchemeUpdated", async ({ event, context }) => {
  const key = { chainId: context.chain.id, registry: event.log.address, topicId: event.args.topicId };
  const row = await context.db.find(topicScheme, key);
  if (!row) return;
  await context.db.update(topicScheme, key).set({ signature: event.args.signature, updatedAt: event.block.timestamp });
  await logScheme(context, event, row.system, "TopicSchemeUpdated");
});

ponder.on("TopicSchemeRegistry:TopicSchemeRemoved", async ({ event, context }) => {
  const key = { chainId: context.chain.id, registry: event.log.address, topicId: event.args.topicId };
  const row = await context.db.find(topicScheme, key);
  if (!row) return;
  const at = event.block.timestamp;
  await context.db.update(topicScheme, key).set({ active: false, updatedAt: at });
  await countStats(context, row.system, at, [
    [METRICS.topicSchemesRemoved, 1],
    [METRICS.topicSchemesActive, -1],
  ]);
  await logScheme(context, event, row.system, "TopicSchemeRemoved");
});
