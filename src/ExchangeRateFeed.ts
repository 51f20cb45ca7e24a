// Exchange rate feeds: announced by the root when a system's registry creates one, then one round per AnswerUpdated.
import { ponder } from "ponder:registry";
import { exchangeRateFeed, exchangeRateRound } from "ponder:schema";

ponder.on("SystemFactory:ExchangeRateFeedCreated", async ({ event, context }) => {
  const { system, feed, baseCurrency, quoteCurrency, decimals } = event.args;
  await context.db.insert(exchangeRateFeed).values({
    chainId: context.chain.id,
    id: feed,
    system,
    baseCurrency,
    quoteCurrency,
    decimals,
    deployedInTransaction: event.transaction.hash,
    createdAt: event.block.timestamp,
  });
});

ponder.on("ExchangeRateFeed:AnswerUpdated", async ({ event, context }) => {
  const { current, roundId, updatedAt } = event.args;
  const key = { chainId: context.chain.id, id: event.log.address };
  const feed = await context.db.find(exchangeRateFeed, key);
  if (!feed) return;
  const { system, baseCurrency, quoteCurrency, decimals } = feed;
  await context.db.insert(exchangeRateRound).values({
    chainId: context.chain.id,
    id: `${event.log.address}:${roundId}`,
    feed: event.log.address,
    system,
    baseCurrency,
    quoteCurrency,
    decimals,
    roundId,
    answer: current,
    effectiveAt: updatedAt,
    blockTimestamp: event.block.timestamp,
    blockNumber: event.block.number,
    transactionHash: event.transaction.hash,
  });
  await context.db.update(exchangeRateFeed, key).set({
    latestRound: roundId,
    latestAnswer: current,
    latestEffectiveAt: updatedAt,
    latestUpdatedAt: event.block.timestamp,
  });
});
