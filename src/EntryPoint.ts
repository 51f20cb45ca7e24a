// The manifest's ERC-4337 EntryPoints (v0.8 and v0.7, one ABI): each user operation they ran (and why its execution reverted), the deposits
// paymasters and accounts pay gas from, and their activity events (system CHAIN_SCOPE). The events an operation's
// execution emitted get its hash, paymaster and cost from the UserOperationEvent in recordActivity (src/relay.ts).
import { type Context, ponder } from "ponder:registry";
import { entryPointDeposit, userOperation, userOperationRevertReason } from "ponder:schema";
import { type Address, isAddressEqual, zeroAddress } from "viem";
import { CHAIN_SCOPE } from "../domain/activity/chain-scope.ts";
import { recordActivity } from "./activity.ts";

/** Moves `account`'s deposit by `change` (a missing row: nothing known before, counted from 0; never below 0). */
async function changeDeposit(context: Context, entryPoint: Address, account: Address, change: bigint, at: bigint) {
  const floor = (value: bigint) => (value < 0n ? 0n : value);
  await context.db
    .insert(entryPointDeposit)
    .values({ chainId: context.chain.id, entryPoint, account, deposit: floor(change), updatedAt: at })
    .onConflictDoUpdate((row) => ({ deposit: floor(row.deposit + change), updatedAt: at }));
}

ponder.on("EntryPoint:UserOperationEvent", async ({ event, context }) => {
  const { userOpHash, sender, paymaster, nonce, success, actualGasCost, actualGasUsed } = event.args;
  const sponsor = isAddressEqual(paymaster, zeroAddress) ? null : paymaster;
  const reverted = success
    ? undefined
    : await context.db.find(userOperationRevertReason, {
        chainId: context.chain.id,
        id: userOpHash,
      });
  await context.db.insert(userOperation).values({
    chainId: context.chain.id,
    id: userOpHash,
    entryPoint: event.log.address,
    sender,
    paymaster: sponsor,
    nonce,
    success,
    actualGasCost,
    actualGasUsed,
    bundler: event.transaction.from,
    revertReason: reverted?.revertReason ?? null,
    transactionHash: event.transaction.hash,
    blockNumber: event.block.number,
    blockTimestamp: event.block.timestamp,
    logIndex: event.log.logIndex,
  });
  await changeDeposit(context, event.log.address, sponsor ?? sender, -actualGasCost, event.block.timestamp);
  await recordActivity(context, event, {
    system: CHAIN_SCOPE,
    eventName: "UserOperationEvent",
    sender,
    account: sender,
    involved: sponsor ? [sender, sponsor, event.transaction.from] : [sender, event.transaction.from],
    values: event.args,
  });
});

ponder.on("EntryPoint:UserOperationRevertReason", async ({ event, context }) => {
  const { userOpHash, sender, nonce, revertReason } = event.args;
  await context.db.insert(userOperationRevertReason).values({
    chainId: context.chain.id,
    id: userOpHash,
    sender,
    nonce,
    revertReason,
    transactionHash: event.transaction.hash,
    blockNumber: event.block.number,
  });
});

ponder.on("EntryPoint:Deposited", async ({ event, context }) => {
  const { account, totalDeposit } = event.args;
  const at = event.block.timestamp;
  await context.db
    .insert(entryPointDeposit)
    .values({ chainId: context.chain.id, entryPoint: event.log.address, account, deposit: totalDeposit, updatedAt: at })
    .onConflictDoUpdate({ deposit: totalDeposit, updatedAt: at });
  await recordActivity(context, event, {
    system: CHAIN_SCOPE,
    eventName: "Deposited",
    sender: event.transaction.from,
    account,
    involved: [],
    values: event.args,
  });
});

ponder.on("EntryPoint:Withdrawn", async ({ event, context }) => {
  const { account, withdrawAddress, amount } = event.args;
  await changeDeposit(context, event.log.address, account, -amount, event.block.timestamp);
  await recordActivity(context, event, {
    system: CHAIN_SCOPE,
    eventName: "Withdrawn",
    sender: account,
    account,
    involved: [withdrawAddress],
    values: event.args,
  });
});
