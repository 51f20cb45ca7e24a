import { ponder as registry } from "ponder:registry";
import type { Virtual } from "ponder";
import { zeroAddress } from "viem";
import type config from "../ponder.config.ts";
import { balance, transferEvent } from "../ponder.schema.ts";

// `ponder:registry` is typed by the repository root's ponder-env.d.ts (the platform's app): retype it for this one.
const ponder = registry as unknown as Virtual.Registry<typeof config, typeof import("../ponder.schema.ts")>;

ponder.on("Erc20:Transfer", async ({ event, context }) => {
  const { from, to, value } = event.args;
  await context.db.insert(transferEvent).values({
    id: event.id,
    from,
    to,
    value,
    blockNumber: event.block.number,
    blockTimestamp: event.block.timestamp,
    transactionHash: event.transaction.hash,
    logIndex: event.log.logIndex,
  });
  if (from !== zeroAddress) {
    await context.db
      .insert(balance)
      .values({ account: from, value: -value })
      .onConflictDoUpdate((row) => ({ value: row.value - value }));
  }
  await context.db
    .insert(balance)
    .values({ account: to, value })
    .onConflictDoUpdate((row) => ({ value: row.value + value }));
});
