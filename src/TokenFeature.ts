// Feature instances: parameter changes and the features' own events, logged against their token.
import { type Context, ponder } from "ponder:registry";
import { tokenFeature } from "ponder:schema";
import type { Address } from "viem";
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

/** Logs a feature event with its sender and the accounts it names. */
function logFeatureEvent(
  eventName: string,
  shape: (args: Record<string, unknown>) => { sender: Address; involved: Address[] },
) {
  return async ({ event, context }: { event: LoggedEvent & { args: Record<string, unknown> }; context: Context }) => {
    const owner = await tokenOf(context, event.log.address);
    if (!owner) return;
    const { sender, involved } = shape(event.args);
    await recordTokenEvent(context, event, { token: owner, eventName, sender, involved, values: event.args });
  };
}

const bySender = (args: Record<string, unknown>) => ({ sender: args.sender as Address, involved: [] });
const withAccounts =
  (...names: string[]) =>
  (args: Record<string, unknown>) => ({
    sender: args.sender as Address,
    involved: names.map((n) => args[n] as Address),
  });

ponder.on("TokenFeature:Redeemed", logFeatureEvent("Redeemed", withAccounts("sender", "treasury")));
ponder.on("TokenFeature:YieldClaimed", logFeatureEvent("YieldClaimed", withAccounts("sender")));
ponder.on("TokenFeature:AumFeeCollected", logFeatureEvent("AumFeeCollected", withAccounts("recipient")));
ponder.on(
  "TokenFeature:TransactionFeeCollected",
  logFeatureEvent("TransactionFeeCollected", withAccounts("payer", "recipient")),
);
ponder.on(
  "TokenFeature:TransactionFeeAccrued",
  logFeatureEvent("TransactionFeeAccrued", withAccounts("payer", "recipient")),
);
ponder.on(
  "TokenFeature:TransactionFeeSettled",
  logFeatureEvent("TransactionFeeSettled", withAccounts("payer", "recipient")),
);
ponder.on(
  "TokenFeature:ExternalTransactionFeeCharged",
  logFeatureEvent("ExternalTransactionFeeCharged", withAccounts("recipient", "from", "to")),
);
ponder.on("TokenFeature:Converted", logFeatureEvent("Converted", withAccounts("sender")));
ponder.on("TokenFeature:ConversionMinted", logFeatureEvent("ConversionMinted", withAccounts("to")));
ponder.on("TokenFeature:ConversionAuthorizationChanged", logFeatureEvent("ConversionAuthorizationChanged", bySender));
ponder.on(
  "TokenFeature:DelegateChanged",
  logFeatureEvent("DelegateChanged", (args) => ({
    sender: args.delegator as Address,
    involved: [args.delegator, args.fromDelegate, args.toDelegate] as Address[],
  })),
);
