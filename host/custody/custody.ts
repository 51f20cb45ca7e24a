// Custody: each organisation's EOAs, named by a derivation path (the primary, one per member, service wallets) and
// recorded in platform.wallets; their keys are held by a custody provider: `software` (a sealed bip32 seed per
// organisation, software-provider.ts) or `pkcs11` (keys inside an HSM, pkcs11/). CUSTODY_PROVIDER picks the provider of
// new organisations; an organisation keeps the one its custody record names.
import type { Transaction } from "kysely";
import type { Address } from "viem";
import type { PlatformDb } from "../db/database.ts";
import type { PlatformTables, WalletsTable } from "../db/platform-types.ts";
import { type CustodyAccount, type DigestSigner, digestAccount } from "./digest-account.ts";
import { createSuccessorKeys, type KeyPair, switchToSuccessors } from "./key-move.ts";
import { auditedSigner, type SigningContext } from "./signature-log.ts";

export type { SigningContext } from "./signature-log.ts";
export { deriveAccount } from "./software-provider.ts";

export const ORGANIZATION_PRIMARY_PATH = "m/44'/60'/0'/0/0";

export type CustodyProviderName = "software" | "pkcs11";
export type { KeyPair } from "./key-move.ts";

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
  /** The provider holding the key of `address` (a key moved to an HSM keeps its old provider for its writes). */
  keyProviderOf(organizationId: string, address: string): Promise<CustodyProviderName>;
  /**
   * The move of a software organisation to the HSM: a successor key in the HSM for each of its current keys, at the
   * same path (created once; a repeat finds them by label).
   */
  successorKeys(organizationId: string): Promise<KeyPair[]>;
  /** Switches the organisation to the successors at once: new writes are theirs, the old keys finish their own. */
  switchToSuccessors(organizationId: string, pairs: KeyPair[]): Promise<void>;
  /** Creates the organisation's keys and primary EOA; returns the EOA address. */
  provisionOrganization(organizationId: string, trx?: Transaction<PlatformTables>): Promise<Address>;
  /** The member's custody EOA in the organisation, created at the next free index on first call; its address. */
  provisionMemberWallet(organizationId: string, userId: string): Promise<Address>;
  primaryAddress(organizationId: string): Promise<Address>;
  /**
   * The primary key now, then each primary key it replaced (a move to the HSM): what the organisation's primary key
   * created on chain (e.g. its paymaster, at an address derived from its creator) is found through them.
   */
  primaryAddresses(organizationId: string): Promise<Address[]>;
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
  // Kept once pkcs11: an organisation moves from software to the HSM, never back.
  const hsmOrganizations = new Set<string>();
  // A key's provider never changes (a moved key stays where it was made).
  const keyProviders = new Map<string, CustodyProviderName>();
  async function providerNameOf(organizationId: string): Promise<CustodyProviderName> {
    if (hsmOrganizations.has(organizationId)) return "pkcs11";
    const name = await recordedProvider(db, organizationId);
    if (name === "pkcs11") hsmOrganizations.add(organizationId);
    return name;
  }
  function configured(name: CustodyProviderName, organizationId: string): CustodyProvider {
    const provider = providers.find((p) => p.name === name);
    if (!provider) throw new Error(`Organisation ${organizationId}'s keys are in ${name} custody, not configured here`);
    return provider;
  }
  const providerOf = async (organizationId: string) => configured(await providerNameOf(organizationId), organizationId);
  async function keyProviderOf(organizationId: string, address: string): Promise<CustodyProviderName> {
    const cacheKey = `${organizationId}:${address.toLowerCase()}`;
    const cached = keyProviders.get(cacheKey);
    if (cached) return cached;
    const wallet = await db
      .selectFrom("wallets")
      .select("custodyProvider")
      .where("organizationId", "=", organizationId)
      .where("address", "=", address.toLowerCase())
      .executeTakeFirst();
    const name = wallet?.custodyProvider ?? (await providerNameOf(organizationId));
    if (wallet) keyProviders.set(cacheKey, name); // an address not (yet) a wallet may become one
    return name;
  }
  return {
    provider: providers[0].name,
    providerOf: providerNameOf,
    keyProviderOf,
    successorKeys: (organizationId) => createSuccessorKeys(db, configured("pkcs11", organizationId), organizationId),
    async switchToSuccessors(organizationId, pairs) {
      await switchToSuccessors(db, organizationId, pairs);
      hsmOrganizations.add(organizationId);
    },
    provisionOrganization: (organizationId, trx) => provisionOrganization(db, providers[0], organizationId, trx),
    provisionMemberWallet: async (organizationId, userId) =>
      provisionMemberWallet(db, await providerOf(organizationId), organizationId, userId),
    serviceWallet: async (organizationId, path, kind) =>
      serviceWallet(db, await providerOf(organizationId), { organizationId, path, kind }),
    // Read each time: a move to the HSM replaces it.
    primaryAddress: (organizationId) => primaryAddressOf(db, organizationId),
    primaryAddresses: (organizationId) => primaryAddressesOf(db, organizationId),
    async signer(organizationId, address, context = DEFAULT_CONTEXT) {
      const cacheKey = `${organizationId}:${address.toLowerCase()}`;
      let signer = signers.get(cacheKey);
      if (!signer) {
        const provider = configured(await keyProviderOf(organizationId, address), organizationId);
        signer = await provider.digestSigner(organizationId, await walletPath(db, organizationId, address));
        signers.set(cacheKey, signer);
      }
      return digestAccount(auditedSigner(db, organizationId, signer, context));
    },
  };
}

/** The organisation's custody record and primary key, in one transaction: `trx` when given (its creator's), else its own. */
async function provisionOrganization(
  db: PlatformDb,
  provider: CustodyProvider,
  organizationId: string,
  inTransaction?: Transaction<PlatformTables>,
) {
  const provision = async (trx: Transaction<PlatformTables>) => {
    const encryptedSeed = await provider.createOrganizationKeys(organizationId);
    await trx.insertInto("custodySeeds").values({ organizationId, encryptedSeed, provider: provider.name }).execute();
    const address = await provider.keyAddress(trx, organizationId, ORGANIZATION_PRIMARY_PATH);
    await insertWallet(trx, {
      address,
      organizationId,
      userId: null,
      kind: "eoa",
      path: ORGANIZATION_PRIMARY_PATH,
      provider: provider.name,
    });
    return address;
  };
  return inTransaction ? provision(inTransaction) : db.transaction().execute(provision);
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
      .where("successorAddress", "is", null)
      .orderBy("createdAt")
      .executeTakeFirst();
    if (existing) return existing.address as Address;
    const { count } = await trx
      .selectFrom("wallets")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("organizationId", "=", organizationId)
      .where("successorAddress", "is", null)
      .executeTakeFirstOrThrow();
    const path = `m/44'/60'/0'/0/${Number(count)}`;
    const address = await provider.keyAddress(trx, organizationId, path);
    await insertWallet(trx, { address, organizationId, userId, kind: "eoa", path, provider: provider.name });
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
    await insertWallet(trx, { ...input, address, userId: null, provider: provider.name });
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
    .where("successorAddress", "is", null)
    .executeTakeFirstOrThrow();
  return row.address as Address;
}

async function primaryAddressesOf(db: PlatformDb, organizationId: string): Promise<Address[]> {
  const rows = await db
    .selectFrom("wallets")
    .select(["address", "successorAddress"])
    .where("organizationId", "=", organizationId)
    .where("derivationPath", "=", ORGANIZATION_PRIMARY_PATH)
    .execute();
  // Walk back from the current key through the keys naming it as their successor.
  const lineage: Address[] = [];
  let current = rows.find((row) => row.successorAddress === null);
  while (current && !lineage.includes(current.address as Address)) {
    lineage.push(current.address as Address);
    const address = current.address;
    current = rows.find((row) => row.successorAddress === address);
  }
  return lineage;
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
    .where("successorAddress", "is", null)
    .executeTakeFirst();
  return row?.address as Address | undefined;
}

/** Locks the organisation's custody record: key creation in the organisation runs one at a time. */
export async function lockCustodyRecord(trx: Transaction<PlatformTables>, organizationId: string) {
  await trx
    .selectFrom("custodySeeds")
    .select("organizationId")
    .where("organizationId", "=", organizationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

async function insertWallet(
  trx: Transaction<PlatformTables>,
  wallet: {
    address: Address;
    organizationId: string;
    userId: string | null;
    kind: WalletsTable["kind"];
    path: string;
    provider: CustodyProviderName;
  },
) {
  await trx
    .insertInto("wallets")
    .values({
      address: wallet.address.toLowerCase(),
      organizationId: wallet.organizationId,
      userId: wallet.userId,
      kind: wallet.kind,
      derivationPath: wallet.path,
      custodyProvider: wallet.provider,
    })
    .execute();
}
