// The system of a directory or type registry row. A system's creation emits its directory entries and first types
// before the root's SystemContractsCreated (same transaction), so those rows start without a system, are listed
// under their contract (systemless_rows), and are adopted when that event arrives. Store API only: a raw SQL write
// makes Ponder flush and forget its whole row cache.
import type { Context } from "ponder:registry";
import {
  addonFactory,
  addonType,
  complianceModuleType,
  directoryEntry,
  type SystemlessRow,
  systemlessRows,
  tokenType,
} from "ponder:schema";
import type { Address } from "viem";
import { systemOf } from "./system-of.ts";

const TABLES = { directoryEntry, tokenType, complianceModuleType, addonType, addonFactory };

/** The contract's system, or null while the root has not announced it yet. */
export async function catalogueSystem(context: Context, contract: Address): Promise<Address | null> {
  return (await systemOf(context, contract)) ?? null;
}

/** The system of the row `row` that `contract` writes; without one yet, the row is listed for adoption. */
export async function systemForRow(context: Context, contract: Address, row: SystemlessRow): Promise<Address | null> {
  const system = await catalogueSystem(context, contract);
  if (system) return system;
  await context.db
    .insert(systemlessRows)
    .values({ chainId: context.chain.id, contract, rows: [row] })
    .onConflictDoUpdate((listed) => ({ rows: [...listed.rows, row] }));
  return null;
}

/** Sets `system` on the rows any of its contracts wrote before SystemContractsCreated (those still there). */
export async function adoptCatalogues(context: Context, system: Address, contracts: Record<string, Address>) {
  const chainId = context.chain.id;
  for (const contract of new Set(Object.values(contracts))) {
    const listed = await context.db.find(systemlessRows, { chainId, contract });
    if (!listed) continue;
    for (const { table, key } of listed.rows) {
      const rowKey = { chainId, ...key } as never;
      if (await context.db.find(TABLES[table], rowKey)) await context.db.update(TABLES[table], rowKey).set({ system });
    }
    await context.db.delete(systemlessRows, { chainId, contract });
  }
}
