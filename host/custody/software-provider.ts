// The `software` custody provider (the embedded default): one random bip32 seed per organisation, sealed with the
// master key in platform.custody_seeds; keys derived on the Ethereum path and kept in the process's memory only.
import { randomBytes } from "node:crypto";
import { HDKey } from "@scure/bip32";
import { bytesToHex, type Hex } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount, sign } from "viem/accounts";
import { seal, unseal } from "../crypto/sealed.ts";
import type { PlatformDb } from "../db/database.ts";
import type { CustodyProvider } from "./custody.ts";

export function deriveAccount(seed: Uint8Array, path: string): PrivateKeyAccount {
  return privateKeyToAccount(derivePrivateKey(seed, path));
}

function derivePrivateKey(seed: Uint8Array, path: string): Hex {
  const key = HDKey.fromMasterSeed(seed).derive(path);
  if (!key.privateKey) throw new Error(`No private key at ${path}`);
  return bytesToHex(key.privateKey);
}

export function createSoftwareProvider(db: PlatformDb, masterKey: Buffer): CustodyProvider {
  /** The organisation's seed, unsealed for `use` and wiped after. */
  async function withSeed<T>(q: Pick<PlatformDb, "selectFrom">, organizationId: string, use: (seed: Uint8Array) => T) {
    const row = await q
      .selectFrom("custodySeeds")
      .select("encryptedSeed")
      .where("organizationId", "=", organizationId)
      .executeTakeFirstOrThrow();
    if (row.encryptedSeed === null)
      throw new Error(`Organisation ${organizationId} has no seed (its keys are in an HSM)`);
    const seed = unseal(row.encryptedSeed, masterKey);
    try {
      return use(seed);
    } finally {
      seed.fill(0);
    }
  }

  return {
    name: "software",
    async createOrganizationKeys() {
      const seed = randomBytes(32);
      const sealed = seal(seed, masterKey);
      seed.fill(0);
      return sealed;
    },
    keyAddress: (trx, organizationId, path) =>
      withSeed(trx, organizationId, (seed) => deriveAccount(seed, path).address),
    async digestSigner(organizationId, path) {
      const privateKey = await withSeed(db, organizationId, (seed) => derivePrivateKey(seed, path));
      return {
        address: privateKeyToAccount(privateKey).address,
        keyLabel: path,
        signDigest: (hash) => sign({ hash, privateKey }),
      };
    },
  };
}
