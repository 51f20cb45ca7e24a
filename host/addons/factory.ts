// A system's addon (factory) of one type, from the index: every system is created with the catalogue's types
// (scripts/contracts/platform-contracts.ts ADDON_CONTRACTS); a system created before a type has none of it.
import { type Address, getAddress } from "viem";
import type { LedgerDb } from "../db/database.ts";
import { indexedHex } from "../db/ledger-types.ts";

export async function systemAddonFactory(
  ledger: LedgerDb,
  system: Address,
  typeName: string,
): Promise<Address | undefined> {
  const row = await ledger
    .selectFrom("addonFactory")
    .select("id")
    .where("system", "=", indexedHex(system))
    .where("typeName", "=", typeName)
    .executeTakeFirst();
  return row ? getAddress(row.id) : undefined;
}
