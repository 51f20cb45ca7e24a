// The ERC-20 assets the index knows by address: platform tokens, then registered external tokens (what an add-on may
// sell, pay with or be denominated in). With `system`, only that system's.
import type { Address } from "viem";
import type { LedgerDb } from "../db/database.ts";
import { indexedHex } from "../db/ledger-types.ts";

export interface KnownAsset {
  name: string;
  symbol: string;
  decimals: number;
  kind: "token" | "external-token";
}

/** The known assets among `addresses`, keyed by lower-case address (a platform token wins over an external one). */
export async function knownAssets(
  ledger: LedgerDb,
  addresses: readonly string[],
  system?: Address,
): Promise<Map<string, KnownAsset>> {
  const known = new Map<string, KnownAsset>();
  const ids = [...new Set(addresses.map(indexedHex))];
  if (ids.length === 0) return known;
  let tokens = ledger.selectFrom("token").select(["id", "name", "symbol", "decimals"]).where("id", "in", ids);
  let external = ledger
    .selectFrom("externalToken")
    .select(["token as id", "name", "symbol", "decimals"])
    .where("token", "in", ids);
  if (system) {
    tokens = tokens.where("system", "=", indexedHex(system));
    external = external.where("system", "=", indexedHex(system));
  }
  const [platform, registered] = await Promise.all([tokens.execute(), external.execute()]);
  for (const row of registered) known.set(row.id.toLowerCase(), { ...row, kind: "external-token" });
  for (const row of platform) known.set(row.id.toLowerCase(), { ...row, kind: "token" });
  return known;
}

/** One known asset (of `system` when given), or undefined. */
export async function knownAsset(ledger: LedgerDb, address: string, system?: Address) {
  return (await knownAssets(ledger, [address], system)).get(address.toLowerCase());
}
