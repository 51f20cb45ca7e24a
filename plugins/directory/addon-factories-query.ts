// The addon factories of a system over the index: the list's base select and the single read.
import { getAddress } from "viem";
import type { AddonKind } from "../../domain/directory/addon-kinds.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex, type LedgerTables } from "../../host/db/ledger-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";

type AddonFactoryRow = LedgerTables["addonFactory"];

/** Unpaged and unordered (the collection engine adds those); removed addons have no row. */
export function systemAddonFactories(db: LedgerDb, system: string) {
  return db.selectFrom("addonFactory").selectAll().where("system", "=", indexedHex(system));
}

const pointer = (address: string | null) => (address ? getAddress(address) : null);

export function toAddonFactoryListItem(row: AddonFactoryRow) {
  return {
    id: getAddress(row.id),
    name: row.name,
    typeId: row.typeName,
    deployedInTransaction: row.deployedInTransaction,
    account: getAddress(row.id),
    kind: row.kind as AddonKind,
    systemAddonImplementation: pointer(row.systemAddonImplementation),
    factoryImplementation: getAddress(row.factoryImplementation),
    instanceImplementation: pointer(row.instanceImplementation),
  };
}

/** The addon at `address` if `system`'s registry created it and it is not removed, else ADDON_FACTORY_NOT_FOUND. */
export async function systemAddonFactory(db: LedgerDb, system: string, address: string) {
  const row = await systemAddonFactories(db, system).where("id", "=", indexedHex(address)).executeTakeFirst();
  if (!row) throw new ApiError("ADDON_FACTORY_NOT_FOUND", { details: { factoryAddress: address } });
  return {
    id: getAddress(row.id),
    name: row.name,
    typeId: row.typeName,
    version: Number(row.version),
    type: row.typeName,
  };
}
