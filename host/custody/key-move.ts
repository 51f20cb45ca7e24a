// Moving an organisation's keys from software custody to the HSM: a successor key in the token for each current key
// (same path, so the same label a pkcs11 organisation's key would have), then one switch after which every new write
// is signed by the successors. A replaced key stays in platform.wallets, naming its successor and its provider: it
// signs the writes it already had, and a repeated Idempotency-Key finds them through it (exactly once across the move).
// What happens on chain (roles, funds) is the custody plugin's (plugins/custody/key-move-task.ts).
import type { Address } from "viem";
import type { PlatformDb } from "../db/database.ts";
import type { TransactionRequestRow, WalletsTable } from "../db/platform-types.ts";
import { type CustodyProvider, lockCustodyRecord } from "./custody.ts";

/** A key of the organisation and its successor in the HSM. */
export interface KeyPair {
  path: string;
  userId: string | null;
  kind: WalletsTable["kind"];
  oldAddress: Address;
  newAddress: Address;
}

/** Wallets with a key of their own (smart wallets and paymasters are contracts). */
const KEYED_KINDS: WalletsTable["kind"][] = ["eoa", "bundler"];

export async function createSuccessorKeys(
  db: PlatformDb,
  hsm: CustodyProvider,
  organizationId: string,
): Promise<KeyPair[]> {
  return db.transaction().execute(async (trx) => {
    await lockCustodyRecord(trx, organizationId);
    const wallets = await trx
      .selectFrom("wallets")
      .select(["address", "derivationPath", "userId", "kind", "custodyProvider"])
      .where("organizationId", "=", organizationId)
      .where("kind", "in", KEYED_KINDS)
      .where("successorAddress", "is", null)
      .orderBy("createdAt")
      .execute();
    const pairs: KeyPair[] = [];
    for (const wallet of wallets) {
      if (wallet.custodyProvider === "pkcs11") continue; // already in the HSM
      pairs.push({
        path: wallet.derivationPath,
        userId: wallet.userId,
        kind: wallet.kind,
        oldAddress: wallet.address as Address,
        // Found by its label when a crashed run created it already.
        newAddress: (await hsm.keyAddress(trx, organizationId, wallet.derivationPath)).toLowerCase() as Address,
      });
    }
    return pairs;
  });
}

export async function switchToSuccessors(db: PlatformDb, organizationId: string, pairs: KeyPair[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockCustodyRecord(trx, organizationId);
    for (const pair of pairs) {
      const old = await trx
        .updateTable("wallets")
        .set({ successorAddress: pair.newAddress.toLowerCase(), custodyProvider: "software" }) // where it was made
        .where("address", "=", pair.oldAddress.toLowerCase())
        .where("successorAddress", "is", null)
        .returning("custodyClassification")
        .executeTakeFirst();
      if (!old) continue; // switched by an earlier run
      await trx
        .insertInto("wallets")
        .values({
          address: pair.newAddress.toLowerCase(),
          organizationId,
          userId: pair.userId,
          kind: pair.kind,
          derivationPath: pair.path,
          custodyClassification: old.custodyClassification,
          custodyProvider: "pkcs11",
        })
        .onConflict((oc) => oc.column("address").doNothing())
        .execute();
    }
    await trx
      .updateTable("custodySeeds")
      .set({ provider: "pkcs11" })
      .where("organizationId", "=", organizationId)
      .execute();
  });
}

/**
 * The write a key replaced by `from` already made with this Idempotency-Key on the chain: a repeat after the move
 * attaches to it instead of writing a second time.
 */
export function predecessorRequest(
  db: PlatformDb,
  input: { from: string; chainId: number; idempotencyKey: string },
): Promise<TransactionRequestRow | undefined> {
  return db
    .selectFrom("transactionRequests")
    .selectAll("transactionRequests")
    .innerJoin("wallets", "wallets.address", "transactionRequests.fromAddress")
    .where("wallets.successorAddress", "=", input.from.toLowerCase())
    .where("transactionRequests.chainId", "=", input.chainId)
    .where("transactionRequests.idempotencyKey", "=", input.idempotencyKey)
    .executeTakeFirst();
}

/** An organisation moves once (software to the HSM, never back): one hop, with room to spare. */
const MAX_SUCCESSORS = 4;

/**
 * The key that signs for `address` now: the address itself, or the successor of a key replaced by a move to the HSM
 * (so a repeat naming the old wallet, e.g. by accountWalletId, finds its first write through the successor).
 */
export async function currentKeyAddress(db: PlatformDb, organizationId: string, address: string): Promise<string> {
  let current = address.toLowerCase();
  for (let hop = 0; hop < MAX_SUCCESSORS; hop++) {
    const row = await db
      .selectFrom("wallets")
      .select("successorAddress")
      .where("organizationId", "=", organizationId)
      .where("address", "=", current)
      .executeTakeFirst();
    if (!row?.successorAddress) return current;
    current = row.successorAddress;
  }
  return current;
}
