// The directory read over the index: a directory's entries and the type catalogues of the registries it links,
// each limited to the caller's system (another system's directory reads as absent).
import type { Kysely } from "kysely";
import { getAddress } from "viem";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex, isoFromSeconds, type LedgerTables } from "../../host/db/ledger-types.ts";
import { directoryFields } from "./directory-shape.ts";

type Row<T extends keyof LedgerTables> = LedgerTables[T];

const typeFields = (row: { typeId: string; name: string; registeredAt: bigint; isExperimental: boolean }) => ({
  id: row.typeId,
  typeId: row.typeId,
  name: row.name,
  registeredAt: isoFromSeconds(row.registeredAt),
  isExperimental: row.isExperimental,
});

const toTokenType = (row: Row<"tokenType">) => ({
  ...typeFields(row),
  implementation: getAddress(row.implementation),
  factoryImplementation: getAddress(row.factoryImplementation),
});

const toComplianceModuleType = (row: Row<"complianceModuleType">) => ({
  ...typeFields(row),
  implementation: getAddress(row.implementation),
});

const toAddonType = (row: Row<"addonType">) => ({
  ...typeFields(row),
  kind: row.kind as "unknown" | "factory" | "singleton",
  factoryImplementation: getAddress(row.factoryImplementation),
  instanceImplementation: row.instanceImplementation ? getAddress(row.instanceImplementation) : null,
});

type CatalogueTable = "tokenType" | "complianceModuleType" | "addonType";

/** The types a registry of `system` holds, by name; none when the directory links no registry. */
async function typesOf<T extends CatalogueTable>(
  db: LedgerDb,
  table: T,
  system: string,
  registry: string | undefined,
): Promise<Row<T>[]> {
  if (!registry) return [];
  // The three tables share these columns; kysely cannot type a table chosen at run time, so it sees just them.
  const catalogue = db as unknown as Kysely<Record<CatalogueTable, { registry: string; system: string; name: string }>>;
  const rows = await catalogue
    .selectFrom(table as CatalogueTable)
    .selectAll()
    .where("registry", "=", indexedHex(registry))
    .where("system", "=", indexedHex(system))
    .orderBy("name")
    .execute();
  return rows as unknown as Row<T>[];
}

/** The directory at `directory` if it belongs to `system`, in the spec's shape; null otherwise. */
export async function readDirectory(db: LedgerDb, system: string, directory: string) {
  const rows = await db
    .selectFrom("directoryEntry")
    .select(["key", "value"])
    .where("directory", "=", indexedHex(directory))
    .where("system", "=", indexedHex(system))
    .execute();
  if (rows.length === 0) return null;
  const entries = new Map(rows.map((row) => [row.key, row.value]));
  const [tokenTypes, complianceModuleTypes, addonTypes] = await Promise.all([
    typesOf(db, "tokenType", system, entries.get("tokenFactoryRegistry")),
    typesOf(db, "complianceModuleType", system, entries.get("complianceModuleRegistry")),
    typesOf(db, "addonType", system, entries.get("addonRegistry")),
  ]);
  return {
    id: getAddress(directory),
    ...directoryFields(entries),
    tokenTypes: tokenTypes.map(toTokenType),
    complianceModuleTypes: complianceModuleTypes.map(toComplianceModuleType),
    addonTypes: addonTypes.map(toAddonType),
  };
}
