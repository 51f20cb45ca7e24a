// An operation's approval: which signers signed its userOpHash, the weight they reach against the wallet's threshold
// now, and the signing itself with the custody keys of the organisation's participants.
import { sql } from "kysely";
import type { Address, Hex } from "viem";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { walletsDb } from "./tables.ts";
import { liveSigners } from "./wallet-chain.ts";

export interface ApprovalState {
  threshold: bigint;
  weight: bigint;
  signers: { address: string; weight: bigint; signed: boolean }[];
}

export type LiveSigners = Awaited<ReturnType<typeof liveSigners>>;

/** The weight `signatures` reach against a signer set read from the chain (read it once per run or request). */
export function weigh({ signers, threshold }: LiveSigners, signatures: Record<string, string>): ApprovalState {
  const rows = signers.map((s) => ({ ...s, signed: signatures[s.address] !== undefined }));
  const weight = rows.filter((s) => s.signed).reduce((sum, s) => sum + s.weight, 0n);
  return { threshold, weight, signers: rows };
}

export async function approvalState(
  on: ServedChain,
  wallet: Address,
  signatures: Record<string, string>,
): Promise<ApprovalState> {
  return weigh(await liveSigners(on, wallet), signatures);
}

/**
 * Signs the operation with each custody wallet of `userId` in the organisation that is a signer and has not signed
 * yet; the signatures join the stored ones in one statement (concurrent signers never lose each other's). Returns
 * the addresses that signed now.
 */
export async function signAsParticipant(
  ctx: PluginContext<"custody">,
  input: { organizationId: string; userId: string; requestId: string; userOpHash: Hex; signers: string[] },
): Promise<string[]> {
  const custodied = await ctx.db.platform
    .selectFrom("wallets")
    .select("address")
    .where("organizationId", "=", input.organizationId)
    .where("userId", "=", input.userId)
    .where("kind", "=", "eoa")
    .where("address", "in", input.signers.length ? input.signers : [""])
    .execute();
  if (custodied.length === 0) return [];
  const fresh: Record<string, string> = {};
  for (const { address } of custodied) {
    const account = await ctx.custody.signer(input.organizationId, address as Address, {
      requestId: input.requestId,
      caller: "smart-wallets:co-signature",
    });
    fresh[address] = await account.sign({ hash: input.userOpHash });
  }
  await walletsDb(ctx.db.platform)
    .updateTable("smartWalletOperations")
    .set({ signatures: sql`signatures || ${JSON.stringify(fresh)}::jsonb` as never })
    .where("requestId", "=", input.requestId)
    .execute();
  return Object.keys(fresh);
}
