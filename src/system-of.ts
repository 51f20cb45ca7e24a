// The system a contract (a registry) belongs to, from the root's SystemContractsCreated; undefined for others.
import type { Context } from "ponder:registry";
import { systemContract } from "ponder:schema";
import type { Address } from "viem";

export async function systemOf(context: Context, contract: Address): Promise<Address | undefined> {
  return (await context.db.find(systemContract, { chainId: context.chain.id, id: contract }))?.system;
}
