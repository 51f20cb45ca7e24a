// Feature instances: parameter changes and the features' own events, logged against their token.
import { type Context, ponder } from "ponder:registry";
import { tokenFeature } from "ponder:schema";
import type { Address } from "viem";
import { type FeatureEvent, featureEvents } from "../domain/features/catalogue.ts";
import { featureValues } from "./feature-values.ts";
import { type LoggedEvent, recordTokenEvent } from "./record-event.ts";

async function tokenOf(context: Context, feature: Address): Promise<Address | undefined> {
  return (await context.db.find(tokenFeature, { chainId: context.chain.id, id: feature }))?.token;
}

ponder.on("TokenFeature:FeatureParametersUpdated", async ({ event, context }) => {
  const { sender, featureId, params } = event.args;
  await context.db
    .update(tokenFeature, { chainId: context.chain.id, id: event.log.address })
    .set({ params, decodedParams: featureValues(featureId, params), updatedAt: event.block.timestamp });
  await recordTokenEvent(context, event, {
    token: event.args.token,
    eventName: "FeatureParametersUpdated",
    sender,
    involved: [],
    values: { featureId, params },
  });
});

/** Logs a feature event against its token, with the sender and the accounts its catalogue entry names. */
function logFeatureEvent(eventName: string, { sender = "sender", involved }: FeatureEvent) {
  return async ({ event, context }: { event: LoggedEvent & { args: Record<string, unknown> }; context: Context }) => {
    const owner = await tokenOf(context, event.log.address);
    if (!owner) return;
    await recordTokenEvent(context, event, {
      token: owner,
      eventName,
      sender: event.args[sender] as Address,
      involved: involved.map((name) => event.args[name] as Address),
      values: event.args,
    });
  };
}

// Every feature's own events (domain/features/catalogue.ts). A loop cannot type a name, so it is cast; the catalogue's
// names and arguments are checked against the ABIs (scripts/contracts/catalogue.test.ts).
for (const [eventName, event] of featureEvents()) {
  ponder.on(`TokenFeature:${eventName}` as never, logFeatureEvent(eventName, event));
}
