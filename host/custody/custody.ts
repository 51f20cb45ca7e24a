// Custody: each organisation's EOAs, named by a derivation path (the primary, one per member, service wallets) and
// recorded in platform.wallets; their keys are held by a custody provider: `software` (a sealed bip32 seed per
// organisation, software-provider.ts) or `pkcs11` (keys inside an HSM, pkcs11/). CUSTODY_PROVIDER picks the provider of
// new organisations; an organisation keeps the one its custody record names.
import type { Transaction } from "kysely";
import type { Address } from "viem";
import type { PlatformDb } from "../db/database.ts";
import type { PlatformTables, WalletsTable } from "../db/platform-types.ts";
import { type CustodyAccount, type DigestSigner, digestAccount } from "./digest-account.ts";
import { auditedSigner, type SigningContext } from "./signature-log.ts";

export type { SigningContext } from "./signature-log.ts";
export { deriveAccount } from "./software-provider.ts";

export const ORGANIZATION_PRIMARY_PATH = "m/44'/60'/0'/0/0";

export type CustodyProviderName = "software" | "pkcs11";

/** Where an organisation's keys live and how they sign: the one part that differs between providers. */
export interface CustodyProvider {
  readonly name: CustodyProviderName;
  /** The organisation's key material, created with its custody record: the sealed seed, or null (keys in an HSM). */
  createOrganizationKeys(organizationId: string): Promise<string | null>;
  /** The address of the organisation's key at `path`, created on first call where the provider creates keys. */
  keyAddress(trx: Transaction<PlatformTables>, organizationId: string, path: string): Promise<Address>;
  /** Signs digests with the organisation's key at `path`; the key never leaves the provider. */
  digestSigner(organizationId: string, path: string): Promise<DigestSigner>;
}

export interface Custody {
  /** The provider of new organisations (CUSTODY_PROVIDER). */
  readonly provider: CustodyProviderName;
  /** The provider holding the organisation's keys. */
  providerOf(organizationId: string): Promise<CustodyProviderName>;
  /** Creates the organisation's keys and primary EOA; returns the EOA address. */
  provisionOrganization(organizationId: string): Promise<Address>;
  /** The member's custody EOA in the organisation, created at the next free index on first call; its address. */
  provisionMemberWallet(organizationId: string, userId: string): Promise<Address>;
  primaryAddress(organizationId: string): Promise<Address>;
  /**
   * The organisation's EOA at a fixed derivation path outside the members' (e.g. the bundler's), recorded as a wallet
   * of `kind` with no user on first call; its address.
   */
  serviceWallet(organizationId: string, path: string, kind: WalletsTable["kind"]): Promise<Address>;
  /** A viem account that signs with the wallet's key; each signature goes to the audit log with `context`. */
  signer(organizationId: string, address: Address, context?: SigningContext): Promise<CustodyAccount>;
}

const DEFAULT_CONTEXT: SigningContext = { caller: "host" };

/**
 * Custody over `providers`: new organisations with the first, every other with the provider its record names (an
 * organisation created before CUSTODY_PROVIDER changed keeps signing where its keys are).
 */
export function createCustody(db: PlatformDb, providers: [CustodyProvider, ...CustodyProvider[]]): Custody {
  const signers = new Map<string, DigestSigner>();
  const primaryAddresses = new Map<string, Address>();
  const providerNames = new Map<string, CustodyProviderName>();
  async function providerOf(organizationId: string): Promise<CustodyProvider> {
    let name = providerNames.get(organizationId);
    if (!name) {
      name = await recordedProvider(db, organizationId);
      providerNames.set(organizationId, name);
    }
    const provider = providers.find((p) => p.name === name);
    if (!provider) throw new Error(`Organisation ${organizationId}'s keys are in ${name} custody, not configured here`);
    return provider;
  }
  return {
    provider: providers[0].name,
    providerOf: async (organizationId) => (await providerOf(organizationId)).name,
    provisionOrganization: (organizationId) => provisionOrganization(db, providers[0], organizationId),
    provisionMemberWallet: async (organizationId, userId) =>
      provisionMemberWallet(db, await providerOf(organizationId), organizationId, userId),
    serviceWallet: async (organizationId, path, kind) =>
      serviceWallet(db, await providerOf(organizationId), { organizationId, path, kind }),
    async primaryAddress(organizationId) {
      // Its key never changes once provisioned.
      const cached = primaryAddresses.get(organizationId);
      if (cached) return cached;
      const address = await primaryAddressOf(db, organizationId);
      primaryAddresses.set(organizationId, address);
      return address;
    },
    async signer(organizationId, address, context = DEFAULT_CONTEXT) {
      const cacheKey = `${organizationId}:${address.toLowerCase()}`;
      let signer = signers.get(cacheKey);
      if (!signer) {
        const provider = await providerOf(organizationId);
        signer = await provider.digestSigner(organizationId, await walletPath(db, organizationId, address));
        signers.set(cacheKey, signer);
      }
      return digestAccount(auditedSigner(db, organizationId, signer, context));
    },
  };
}

async function provisionOrganization(db: PlatformDb, provider: CustodyProvider, organizationId: string) {
  return db.transaction().execute(async (trx) => {
    const encryptedSeed = await provider.createOrganizationKeys(organizationId);
    await trx.insertInto("custodySeeds").values({ organizationId, encryptedSeed, provider: provider.name }).execute();
    const address = await provider.keyAddress(trx, organizationId, ORGANIZATION_PRIMARY_PATH);
    await insertWallet(trx, { address, organizationId, userId: null, kind: "eoa", path: ORGANIZATION_PRIMARY_PATH });
    return address;
  });
}

async function provisionMemberWallet(
  db: PlatformDb,
  provider: CustodyProvider,
  organizationId: string,
  userId: string,
) {
  return db.transaction().execute(async (trx) => {
    await lockCustodyRecord(trx, organizationId); // each index is handed out once
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
    const path = `m/44'/60'/0'/0/${Number(count)}`;
    const address = await provider.keyAddress(trx, organizationId, path);
    await insertWallet(trx, { address, organizationId, userId, kind: "eoa", path });
    return address;
  });
}

async function serviceWallet(
  db: PlatformDb,
  provider: CustodyProvider,
  input: { organizationId: string; path: string; kind: WalletsTable["kind"] },
) {
  const existing = await existingWalletAt(db, input.organizationId, input.path);
  if (existing) return existing;
  return db.transaction().execute(async (trx) => {
    await lockCustodyRecord(trx, input.organizationId); // two first calls at once create one key
    const created = await existingWalletAt(trx, input.organizationId, input.path);
    if (created) return created;
    const address = await provider.keyAddress(trx, input.organizationId, input.path);
    await insertWallet(trx, { ...input, address, userId: null });
    return address;
  });
}

async function recordedProvider(db: PlatformDb, organizationId: string): Promise<CustodyProviderName> {
  const record = await db
    .selectFrom("custodySeeds")
    .select("provider")
    .where("organizationId", "=", organizationId)
    .executeTakeFirstOrThrow();
  return record.provider;
}

async function primaryAddressOf(db: PlatformDb, organizationId: string): Promise<Address> {
  const row = await db
    .selectFrom("wallets")
    .select("address")
    .where("organizationId", "=", organizationId)
    .where("derivationPath", "=", ORGANIZATION_PRIMARY_PATH)
    .executeTakeFirstOrThrow();
  return row.address as Address;
}

async function walletPath(db: PlatformDb, organizationId: string, address: Address): Promise<string> {
  const wallet = await db
    .selectFrom("wallets")
    .select("derivationPath")
    .where("organizationId", "=", organizationId)
    .where("address", "=", address.toLowerCase())
    .executeTakeFirstOrThrow();
  return wallet.derivationPath;
}

async function existingWalletAt(db: PlatformDb | Transaction<PlatformTables>, organizationId: string, path: string) {
  const row = await db
    .selectFrom("wallets")
    .select("address")
    .where("organizationId", "=", organizationId)
    .where("derivationPath", "=", path)
    .executeTakeFirst();
  return row?.address as Address | undefined;
}

/** Locks the organisation's custody record: key creation in the organisation runs one at a time. */
async function lockCustodyRecord(trx: Transaction<PlatformTables>, organizationId: string) {
  await trx
    .selectFrom("custodySeeds")
    .select("organizationId")
    .where("organizationId", "=", organizationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

async function insertWallet(
  trx: Transaction<PlatformTables>,
  wallet: { address: Address; organizationId: string; userId: string | null; kind: WalletsTable["kind"]; path: string },
) {
  await trx
    .insertInto("wallets")
    .values({
      address: wallet.address.toLowerCase(),
      organizationId: wallet.organizationId,
      userId: wallet.userId,
      kind: wallet.kind,
      derivationPath: wallet.path,
    })
    .execute();
}
