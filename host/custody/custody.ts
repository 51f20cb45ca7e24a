// Custody: one bip32 seed per organisation, EOAs derived on the Ethereum path, signing keys kept in memory only.
import { randomBytes } from "node:crypto";
import { HDKey } from "@scure/bip32";
import { type Address, bytesToHex, type Hex } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { seal, unseal } from "../crypto/sealed.ts";
import type { PlatformDb } from "../db/database.ts";
import type { WalletsTable } from "../db/platform-types.ts";

export const ORGANIZATION_PRIMARY_PATH = "m/44'/60'/0'/0/0";

export interface Custody {
  /** Creates the organisation's seed and primary EOA; returns the EOA address. */
  provisionOrganization(organizationId: string): Promise<Address>;
  /** The member's custody EOA in the organisation, derived at the next free index on first call; its address. */
  provisionMemberWallet(organizationId: string, userId: string): Promise<Address>;
  primaryAddress(organizationId: string): Promise<Address>;
  /**
   * The organisation's EOA at a fixed derivation path outside the members' (e.g. the bundler's), recorded as a wallet
   * of `kind` with no user on first call; its address.
   */
  serviceWallet(organizationId: string, path: string, kind: WalletsTable["kind"]): Promise<Address>;
  signer(organizationId: string, address: Address): Promise<PrivateKeyAccount>;
}

export function deriveAccount(seed: Uint8Array, path: string): PrivateKeyAccount {
  const key = HDKey.fromMasterSeed(seed).derive(path);
  if (!key.privateKey) throw new Error(`No private key at ${path}`);
  return privateKeyToAccount(bytesToHex(key.privateKey) as Hex);
}

export function createCustody(db: PlatformDb, masterKey: Buffer): Custody {
  const signers = new Map<string, PrivateKeyAccount>();
  const primaryAddresses = new Map<string, Address>();

  async function seedOf(organizationId: string): Promise<Uint8Array> {
    const row = await db
      .selectFrom("custodySeeds")
      .select("encryptedSeed")
      .where("organizationId", "=", organizationId)
      .executeTakeFirstOrThrow();
    return unseal(row.encryptedSeed, masterKey);
  }

  return {
    async provisionOrganization(organizationId) {
      const seed = randomBytes(32);
      const account = deriveAccount(seed, ORGANIZATION_PRIMARY_PATH);
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("custodySeeds")
          .values({ organizationId, encryptedSeed: seal(seed, masterKey) })
          .execute();
        await trx
          .insertInto("wallets")
          .values({
            address: account.address.toLowerCase(),
            organizationId,
            userId: null,
            kind: "eoa",
            derivationPath: ORGANIZATION_PRIMARY_PATH,
          })
          .execute();
      });
      seed.fill(0);
      return account.address;
    },
    async provisionMemberWallet(organizationId, userId) {
      return db.transaction().execute(async (trx) => {
        // The seed row's lock serialises derivations in the organisation: each index is handed out once.
        const seedRow = await trx
          .selectFrom("custodySeeds")
          .select("encryptedSeed")
          .where("organizationId", "=", organizationId)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const existing = await trx
          .selectFrom("wallets")
          .select("address")
          .where("organizationId", "=", organizationId)
          .where("userId", "=", userId)
          .orderBy("createdAt")
          .executeTakeFirst();
        if (existing) return existing.address as Address;
        const { count } = await trx
          .selectFrom("wallets")
          .select((eb) => eb.fn.countAll<string>().as("count"))
          .where("organizationId", "=", organizationId)
          .executeTakeFirstOrThrow();
        const derivationPath = `m/44'/60'/0'/0/${Number(count)}`;
        const seed = unseal(seedRow.encryptedSeed, masterKey);
        const account = deriveAccount(seed, derivationPath);
        seed.fill(0);
        await trx
          .insertInto("wallets")
          .values({ address: account.address.toLowerCase(), organizationId, userId, kind: "eoa", derivationPath })
          .execute();
        return account.address;
      });
    },
    async serviceWallet(organizationId, path, kind) {
      const existing = await db
        .selectFrom("wallets")
        .select("address")
        .where("organizationId", "=", organizationId)
        .where("derivationPath", "=", path)
        .executeTakeFirst();
      if (existing) return existing.address as Address;
      const seed = await seedOf(organizationId);
      const account = deriveAccount(seed, path);
      seed.fill(0);
      await db
        .insertInto("wallets")
        .values({ address: account.address.toLowerCase(), organizationId, userId: null, kind, derivationPath: path })
        .onConflict((oc) => oc.column("address").doNothing()) // two first calls at once derive the same address
        .execute();
      return account.address;
    },
    async primaryAddress(organizationId) {
      // Derived from the organisation's seed, so it never changes once provisioned.
      const cached = primaryAddresses.get(organizationId);
      if (cached) return cached;
      const row = await db
        .selectFrom("wallets")
        .select("address")
        .where("organizationId", "=", organizationId)
        .where("derivationPath", "=", ORGANIZATION_PRIMARY_PATH)
        .executeTakeFirstOrThrow();
      primaryAddresses.set(organizationId, row.address as Address);
      return row.address as Address;
    },
    async signer(organizationId, address) {
      const cacheKey = `${organizationId}:${address.toLowerCase()}`;
      const cached = signers.get(cacheKey);
      if (cached) return cached;
      const wallet = await db
        .selectFrom("wallets")
        .select("derivationPath")
        .where("organizationId", "=", organizationId)
        .where("address", "=", address.toLowerCase())
        .executeTakeFirstOrThrow();
      const account = deriveAccount(await seedOf(organizationId), wallet.derivationPath);
      signers.set(cacheKey, account);
      return account;
    },
  };
}
