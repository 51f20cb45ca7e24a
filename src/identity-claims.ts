// The claim lifecycle on an identity (spec: none → attached → changed / removed / revoked), its event log and counters.
import type { Context } from "ponder:registry";
import { claimSignature, identity, identityClaim, identityClaimEvent } from "ponder:schema";
import { type Address, type Hex, isAddressEqual, keccak256 } from "viem";
import { METRICS } from "../domain/statistics/metrics.ts";
import { recordActivity } from "./activity.ts";
import type { LoggedEvent } from "./record-event.ts";
import { countStats } from "./system-stats.ts";

interface ClaimArgs {
  claimId: Hex;
  topic: bigint;
  scheme: bigint;
  issuer: Address;
  signature: Hex;
  data: Hex;
  uri: string;
}

type Owner = typeof identity.$inferSelect;

/** One row of the identity's claim event log; the identity's latest activity moves to the event's block. */
async function recordClaimEvent(
  context: Context,
  event: LoggedEvent,
  owner: Owner,
  input: { eventName: string; topic: bigint; claimId: Hex; issuer: Address; sender: Address; values: object },
) {
  await context.db.insert(identityClaimEvent).values({
    chainId: context.chain.id,
    id: `${event.transaction.hash}-${event.log.logIndex}`,
    ordinal: event.id,
    system: owner.system,
    identity: owner.id,
    eventName: input.eventName,
    topic: input.topic,
    claimId: input.claimId,
    issuer: input.issuer,
    emitter: event.log.address,
    sender: input.sender,
    values: Object.entries(input.values).map(([name, value]) => ({ name, value: String(value) })),
    blockNumber: event.block.number,
    blockTimestamp: event.block.timestamp,
    transactionHash: event.transaction.hash,
    logIndex: event.log.logIndex,
  });
  await context.db
    .update(identity, { chainId: context.chain.id, id: owner.id })
    .set({ lastActivityAt: event.block.timestamp });
  await recordActivity(context, event, {
    system: owner.system,
    eventName: input.eventName,
    sender: input.sender,
    account: owner.account,
    involved: [owner.id, input.issuer],
    values: input.values as Record<string, unknown>,
  });
}

/** ClaimAdded, or ClaimChanged (same issuer and topic, new data or signature: active again if it was revoked). */
export async function attachClaim(
  context: Context,
  event: LoggedEvent & { args: ClaimArgs },
  eventName: "ClaimAdded" | "ClaimChanged",
) {
  const owner = await context.db.find(identity, { chainId: context.chain.id, id: event.log.address });
  if (!owner) return;
  const { claimId, topic, scheme, issuer, signature, data, uri } = event.args;
  const at = event.block.timestamp;
  const key = { chainId: context.chain.id, identity: owner.id, claimId };
  // Read before the upsert: Ponder's cache hands out the row it then updates in place.
  const previousStatus = (await context.db.find(identityClaim, key))?.status;
  const claim = { topic, scheme, issuer, signature, data, uri, status: "active", updatedAt: at };
  await context.db
    .insert(identityClaim)
    .values({ ...key, ...claim, system: owner.system, issuedAt: at })
    .onConflictDoUpdate(claim);
  await context.db
    .insert(claimSignature)
    .values({ issuer, signatureHash: keccak256(signature), ...key })
    .onConflictDoUpdate({ identity: owner.id, claimId });
  const counted = previousStatus
    ? ([[METRICS.claimsActive, previousStatus === "revoked" ? 1 : 0]] as const)
    : ([
        [METRICS.claimsIssued, 1],
        [METRICS.claimsActive, 1],
      ] as const);
  await countStats(context, owner.system, at, counted);
  await recordClaimEvent(context, event, owner, {
    eventName,
    topic,
    claimId,
    issuer,
    sender: event.transaction.from,
    values: { topic, scheme, issuer, signature, data, uri },
  });
}

export async function detachClaim(context: Context, event: LoggedEvent & { args: ClaimArgs }) {
  const owner = await context.db.find(identity, { chainId: context.chain.id, id: event.log.address });
  if (!owner) return;
  const { claimId, topic, scheme, issuer, signature, data, uri } = event.args;
  const key = { chainId: context.chain.id, identity: owner.id, claimId };
  const previousStatus = (await context.db.find(identityClaim, key))?.status;
  if (previousStatus) {
    await context.db.delete(identityClaim, key);
    await countStats(context, owner.system, event.block.timestamp, [
      [METRICS.claimsRemoved, 1],
      [METRICS.claimsActive, previousStatus === "active" ? -1 : 0],
    ]);
  }
  await recordClaimEvent(context, event, owner, {
    eventName: "ClaimRemoved",
    topic,
    claimId,
    issuer,
    sender: event.transaction.from,
    values: { topic, scheme, issuer, signature, data, uri },
  });
}

/**
 * ClaimRevoked, emitted by the issuer identity: the claim that carries the revoked signature (found by the signature,
 * since a revocation by signature names no subject) leaves the active set. A claim changed since keeps its state.
 */
export async function revokeClaim(
  context: Context,
  event: LoggedEvent & { args: { sender: Address; signature: Hex } },
) {
  const issuer = event.log.address;
  const signatureHash = keccak256(event.args.signature);
  const chainId = context.chain.id;
  const link = await context.db.find(claimSignature, { chainId, issuer, signatureHash });
  if (!link) return;
  const claim = await context.db.find(identityClaim, { chainId, identity: link.identity, claimId: link.claimId });
  if (!claim || !isAddressEqual(claim.issuer, issuer) || keccak256(claim.signature) !== signatureHash) return;
  const owner = await context.db.find(identity, { chainId, id: claim.identity });
  if (!owner) return;
  const { status, topic, claimId } = claim; // before the update changes the cached row
  if (status === "active") {
    await context.db
      .update(identityClaim, { chainId, identity: owner.id, claimId })
      .set({ status: "revoked", updatedAt: event.block.timestamp });
    await countStats(context, owner.system, event.block.timestamp, [
      [METRICS.claimsRevoked, 1],
      [METRICS.claimsActive, -1],
    ]);
  }
  await recordClaimEvent(context, event, owner, {
    eventName: "ClaimRevoked",
    topic,
    claimId,
    issuer,
    sender: event.args.sender,
    values: { topic, issuer, signature: event.args.signature },
  });
}
