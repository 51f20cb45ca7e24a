// The smart wallets: each weighted-multisig account the manifest's factory created, its signers with their weights
// and its threshold, and their activity events (system CHAIN_SCOPE; the account is the event's sender and account).
// An account's initialisation emits SignerAdded and ThresholdChanged before the factory's AccountCreated, which
// carries the whole initial set: those come before the account is known and are left to it.
import { type Context, ponder } from "ponder:registry";
import { smartWallet, smartWalletSigner } from "ponder:schema";
import type { Address } from "viem";
import { CHAIN_SCOPE } from "../domain/activity/chain-scope.ts";
import { recordActivity } from "./activity.ts";
import type { LoggedEvent } from "./record-event.ts";

ponder.on("SmartAccountFactory:AccountCreated", async ({ event, context }) => {
  const { account, signers, weights, threshold, salt } = event.args;
  const at = event.block.timestamp;
  await context.db.insert(smartWallet).values({
    chainId: context.chain.id,
    id: account,
    factory: event.log.address,
    threshold,
    totalWeight: weights.reduce((sum, weight) => sum + weight, 0n),
    signerCount: signers.length,
    salt,
    createdBy: event.transaction.from,
    deployedInTransaction: event.transaction.hash,
    createdAt: at,
    updatedAt: at,
  });
  await context.db.insert(smartWalletSigner).values(
    signers.map((signer, i) => ({
      chainId: context.chain.id,
      wallet: account,
      signer,
      weight: weights[i]!,
      addedAt: at,
      updatedAt: at,
    })),
  );
  await recordActivity(context, event, {
    system: CHAIN_SCOPE,
    eventName: "AccountCreated",
    sender: event.transaction.from,
    account,
    involved: [...signers],
    values: event.args,
  });
});

/** Applies a change to a known account's signer set (totals read before the update) and records its activity. */
async function walletChanged(
  context: Context,
  event: LoggedEvent & { args: Record<string, unknown> },
  eventName: string,
  change: { weight: bigint; signers: number; threshold?: bigint },
  involved: Address[],
) {
  const id = event.log.address;
  const key = { chainId: context.chain.id, id };
  const wallet = await context.db.find(smartWallet, key);
  if (!wallet) return; // its initialisation: AccountCreated follows with the whole set
  const { totalWeight, signerCount, threshold } = wallet;
  await context.db.update(smartWallet, key).set({
    totalWeight: totalWeight + change.weight,
    signerCount: signerCount + change.signers,
    threshold: change.threshold ?? threshold,
    updatedAt: event.block.timestamp,
  });
  await recordActivity(context, event, {
    system: CHAIN_SCOPE,
    eventName,
    sender: id,
    account: id,
    involved,
    values: event.args,
  });
}

ponder.on("SmartWallet:SignerAdded", async ({ event, context }) => {
  const { signer, weight } = event.args;
  const wallet = event.log.address;
  const chainId = context.chain.id;
  if (!(await context.db.find(smartWallet, { chainId, id: wallet }))) return;
  const at = event.block.timestamp;
  await context.db.insert(smartWalletSigner).values({ chainId, wallet, signer, weight, addedAt: at, updatedAt: at });
  await walletChanged(context, event, "SignerAdded", { weight, signers: 1 }, [signer]);
});

ponder.on("SmartWallet:SignerRemoved", async ({ event, context }) => {
  const { signer } = event.args;
  const key = { chainId: context.chain.id, wallet: event.log.address, signer };
  const row = await context.db.find(smartWalletSigner, key);
  if (!row) return;
  const { weight } = row;
  await context.db.delete(smartWalletSigner, key);
  await walletChanged(context, event, "SignerRemoved", { weight: -weight, signers: -1 }, [signer]);
});

ponder.on("SmartWallet:WeightChanged", async ({ event, context }) => {
  const { signer, oldWeight, newWeight } = event.args;
  const key = { chainId: context.chain.id, wallet: event.log.address, signer };
  if (!(await context.db.find(smartWalletSigner, key))) return;
  await context.db.update(smartWalletSigner, key).set({
    weight: newWeight,
    updatedAt: event.block.timestamp,
  });
  await walletChanged(context, event, "WeightChanged", { weight: newWeight - oldWeight, signers: 0 }, [signer]);
});

ponder.on("SmartWallet:ThresholdChanged", async ({ event, context }) => {
  await walletChanged(
    context,
    event,
    "ThresholdChanged",
    { weight: 0n, signers: 0, threshold: event.args.newThreshold },
    [],
  );
});
