// The system of a directory or type registry row. A system's creation emits its directory entries and first types
// before the root's SystemContractsCreated (same transaction), so those rows start without a system and are adopted
// when that event arrives.
import type { Context } from "ponder:registry";
import { addonFactory, addonType, complianceModuleType, directoryEntry, tokenType } from "ponder:schema";
import { and, eq, isNull } from "ponder";
import type { Address } from "viem";
import { systemOf } from "./system-of.ts";

/** The contract's system, or null while the root has not announced it yet. */
export async function catalogueSystem(context: Context, contract: Address): Promise<Address | null> {
  return (await systemOf(context, contract)) ?? null;
}

interface CatalogueContracts {
  directory: Address;
  tokenFactoryRegistry: Address;
  complianceModuleRegistry: Address;
  addonRegistry: Address;
}

/** Sets `system` on the rows its contracts wrote before SystemContractsCreated. */
export async function adoptCatalogues(context: Context, system: Address, contracts: CatalogueContracts) {
  const { sql } = context.db;
  const chainId = context.chain.id;
  await sql
    .update(directoryEntry)
    .set({ system })
    .where(
      and(
        eq(directoryEntry.chainId, chainId),
        eq(directoryEntry.directory, contracts.directory),
        isNull(directoryEntry.system),
      ),
    );
  await sql
    .update(tokenType)
    .set({ system })
    .where(
      and(
        eq(tokenType.chainId, chainId),
        eq(tokenType.registry, contracts.tokenFactoryRegistry),
        isNull(tokenType.system),
      ),
    );
  await sql
    .update(complianceModuleType)
    .set({ system })
    .where(
      and(
        eq(complianceModuleType.chainId, chainId),
        eq(complianceModuleType.registry, contracts.complianceModuleRegistry),
        isNull(complianceModuleType.system),
      ),
    );
  for (const table of [addonType, addonFactory]) {
    await sql
      .update(table)
      .set({ system })
      .where(and(eq(table.chainId, chainId), eq(table.registry, contracts.addonRegistry), isNull(table.system)));
  }
}
