// The move's `reissue` step: Identity.isClaimValid accepts a claim only while its signer holds the claim purpose on
// the issuer identity, so an old key keeps that purpose until every claim it signed is signed again by its successor
// and added again to its holder identity (the same issuer and topic, so the claim changes in place: it is valid
// throughout). Only then is the old key's claim purpose removed (removeKey by a manager of the issuer identity: by
// then the new primary key, so the HSM partition must be active). A claim no key of the organisation may add again
// keeps its signer's claim purpose, and is listed in the move's record.
import { type Address, getAddress, type Hex, isAddressEqual } from "viem";
import { IdentityAbi } from "../../abis/Identity.ts";
import { claimAddition, claimSigner } from "../../domain/evm/claim-signature.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { ORGANIZATION_PRIMARY_PATH } from "../../host/custody/custody.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import { CLAIM, type HeldPower, hasPurpose, MANAGEMENT } from "./key-move-powers.ts";
import type { MoveTools } from "./key-move-tools.ts";
import type { LeftClaim } from "./tables.ts";

/** A claim on a holder identity, as it stands on chain. */
export interface LiveClaim {
  holder: Address;
  claimId: Hex;
  topic: bigint;
  issuer: Address;
  signature: Hex;
  data: Hex;
  uri: string;
}

export async function reissueClaims(tools: MoveTools): Promise<void> {
  const { ctx, keys } = tools;
  const newPrimary = keys.find((pair) => pair.path === ORGANIZATION_PRIMARY_PATH)?.newAddress;
  const writes: string[] = [];
  const removable: { pair: (typeof keys)[number]; power: HeldPower }[] = [];
  const left: LeftClaim[] = [];
  for (const pair of keys) {
    for (const power of await tools.powers(pair.oldAddress)) {
      if (power.kind !== "identityKey" || power.purpose !== CLAIM) continue;
      const on = ctx.chains.get(power.chainId);
      const issuer = getAddress(power.contract);
      // Without the claim purpose (granted at `grants`) the successor's signature would void the claim.
      const successorSigns = await hasPurpose(on, issuer, pair.newAddress, CLAIM);
      let blocked = false;
      for (const claim of await claimsSignedBy(on, ctx.db.ledgerOn(power.chainId), issuer, pair.oldAddress)) {
        // Sent by a key allowed to change the holder's claims (CLAIM or MANAGEMENT there), as the claim routes do.
        const from = successorSigns && (await firstWithPurpose(on, claim.holder, [pair.newAddress, newPrimary]));
        if (!from) {
          blocked = true;
          left.push({ chainId: power.chainId, holder: claim.holder, claimId: claim.claimId, signer: pair.oldAddress });
          continue;
        }
        const successor = await ctx.custody.signer(tools.organizationId, pair.newAddress, {
          caller: "custody:claim-reissue",
        });
        const addition = await claimAddition(successor, {
          subject: claim.holder,
          topicId: claim.topic,
          issuer,
          data: claim.data,
          uri: claim.uri,
        });
        writes.push(
          await tools.submit({
            chainId: power.chainId,
            kind: "custody.reissueClaim",
            from,
            ...addition,
            key: `reissue:${power.chainId}:${claim.holder.toLowerCase()}:${claim.claimId}:${pair.newAddress}`,
            description: `Issue claim ${claim.claimId.slice(0, 10)}… of ${claim.holder} again, signed by ${pair.newAddress} (HSM successor of ${pair.oldAddress})`,
          }),
        );
      }
      if (!blocked) removable.push({ pair, power });
    }
  }
  tools.detail.claimsLeft = left;
  await tools.completeAll(writes); // every claim signed again before any claim key goes
  const removals = await Promise.all(removable.map(({ pair, power }) => tools.revoke(pair, power)));
  await tools.completeAll([...writes, ...removals.filter((id) => id !== undefined)]);
}

/**
 * The claims of the issuer identity signed by `signer` as they stand now: listed from the index (identity_claim),
 * each read again from its holder (a resumed run finds those issued again signed by the successor) and left out
 * once revoked (issuing it again would revive it).
 */
export async function claimsSignedBy(
  on: ServedChain,
  ledger: LedgerDb,
  issuer: Address,
  signer: Address,
): Promise<LiveClaim[]> {
  const rows = await ledger
    .selectFrom("identityClaim")
    .select(["identity", "claimId"])
    .where("issuer", "=", indexedHex(issuer))
    .where("status", "=", "active")
    .orderBy("identity")
    .orderBy("claimId")
    .execute();
  const claims: LiveClaim[] = [];
  for (const row of rows) {
    const holder = getAddress(row.identity);
    const claimId = row.claimId as Hex;
    const [topic, , claimIssuer, signature, data, uri] = await on.client.readContract({
      address: holder,
      abi: IdentityAbi,
      functionName: "getClaim",
      args: [claimId],
    });
    if (!isAddressEqual(claimIssuer, issuer)) continue; // removed since
    if (!isAddressEqual(await claimSigner(holder, topic, data, signature), signer)) continue;
    const revoked = await on.client.readContract({
      address: issuer,
      abi: IdentityAbi,
      functionName: "isClaimRevoked",
      args: [signature],
    });
    if (!revoked) claims.push({ holder, claimId, topic, issuer, signature, data, uri });
  }
  return claims;
}

/** The first of `candidates` holding the claim or the management purpose on the identity. */
async function firstWithPurpose(
  on: ServedChain,
  identity: Address,
  candidates: (Address | undefined)[],
): Promise<Address | undefined> {
  for (const candidate of candidates) {
    if (!candidate) continue;
    if ((await hasPurpose(on, identity, candidate, CLAIM)) || (await hasPurpose(on, identity, candidate, MANAGEMENT)))
      return candidate;
  }
  return undefined;
}
