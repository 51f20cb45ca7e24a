// Root factory events: systems and tokens come into being here.
import { ponder } from "ponder:registry";
import { system, token, tokenFeature } from "ponder:schema";
import { zeroAddress } from "viem";
import { recordActivity } from "./activity.ts";
import { featureValues } from "./feature-values.ts";

ponder.on("SystemFactory:SystemCreated", async ({ event, context }) => {
  await context.db.insert(system).values({
    id: event.args.system,
    chainId: context.chain.id,
    owner: event.args.owner,
    tokenFactory: event.args.tokenFactory,
    accessManager: event.args.accessManager,
    compliance: event.args.compliance,
    identityRegistry: event.args.identityRegistry,
    identityFactory: event.args.identityFactory,
    directory: event.args.directory,
    createdBy: event.args.sender,
    deployedInTransaction: event.transaction.hash,
    blockNumber: event.block.number,
    createdAt: event.block.timestamp,
  });
});

ponder.on("SystemFactory:TokenCreated", async ({ event, context }) => {
  await context.db.insert(token).values({
    id: event.args.token,
    chainId: context.chain.id,
    system: event.args.system,
    tokenFactory: event.args.tokenFactory,
    type: event.args.tokenType,
    name: event.args.name,
    symbol: event.args.symbol,
    decimals: event.args.decimals,
    totalSupply: 0n,
    compliance: event.args.compliance === zeroAddress ? null : event.args.compliance,
    featureIds: [...event.args.featureIds],
    paused: false,
    createdBy: event.args.sender,
    deployedInTransaction: event.transaction.hash,
    blockNumber: event.block.number,
    createdAt: event.block.timestamp,
  });
  const { sender, system: systemAddress, tokenType, name, symbol, decimals, featureIds } = event.args;
  await recordActivity(context, event, {
    system: systemAddress,
    eventName: "TokenCreated",
    sender,
    token: event.args.token,
    involved: [],
    values: { tokenType, name, symbol, decimals, featureIds: featureIds.join(",") },
  });
});

ponder.on("SystemFactory:FeatureAttached", async ({ event, context }) => {
  const { token: tokenAddress, feature, featureId, params } = event.args;
  const owner = await context.db.find(token, { chainId: context.chain.id, id: tokenAddress });
  await context.db.insert(tokenFeature).values({
    chainId: context.chain.id,
    id: feature,
    token: tokenAddress,
    featureId,
    params,
    decodedParams: featureValues(featureId, params),
    position: owner?.featureIds.indexOf(featureId) ?? 0,
    attachedAt: event.block.timestamp,
    updatedAt: event.block.timestamp,
  });
});
