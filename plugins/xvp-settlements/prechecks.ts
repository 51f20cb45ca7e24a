// The refusals before a settlement write is queued, from the index and the chain's current state (the contract
// refuses the same with the reverts in revert-errors.ts when the state changed in between).

import { type Address, getAddress, type Hex, keccak256 } from "viem";
import { chainNow } from "../../host/chain/chain-time.ts";
import { assertErc20Funds } from "../../host/chain/erc20-funds.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { Settlement } from "./settlement-query.ts";

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Executed, cancelled, and (unless `allowExpired`) past the cutoff: nothing more may happen. */
async function assertOpen(chain: RequestChain, { row }: Settlement, allowExpired = false) {
  const settlementAddress = getAddress(row.id);
  if (row.executedAt !== null) throw new ApiError("XVP_SETTLEMENT_EXECUTED", { details: { settlementAddress } });
  if (row.cancelledAt !== null) throw new ApiError("XVP_SETTLEMENT_CANCELLED", { details: { settlementAddress } });
  if (!allowExpired && (await chainNow(chain.client)) > row.cutoff) {
    throw new ApiError("XVP_SETTLEMENT_EXPIRED", {
      details: { settlementAddress, cutoffDate: new Date(Number(row.cutoff) * 1000).toISOString() },
    });
  }
}

/** A creation: the contract's own validation (distinct from and to, amount above 0, a cutoff ahead of the chain). */
export async function assertCreatable(
  chain: RequestChain,
  flows: { from: string; to: string; amount: string }[],
  cutoff: bigint,
) {
  const bad = flows.findIndex((f) => same(f.from, f.to) || BigInt(f.amount) === 0n);
  if (bad >= 0) {
    throw new ApiError("XVP_SETTLEMENT_INVALID", {
      message: `Flow ${bad} is invalid: its from and to must differ and its amount be above 0`,
      details: { flowIndex: bad },
    });
  }
  const now = await chainNow(chain.client);
  if (cutoff <= now) {
    throw new ApiError("XVP_SETTLEMENT_INVALID", {
      message: "The cutoffDate must be after the chain's current time",
      details: {
        cutoffDate: new Date(Number(cutoff) * 1000).toISOString(),
        chainTime: new Date(Number(now) * 1000).toISOString(),
      },
    });
  }
}

/** What the signer's outgoing legs need per asset; refused when it sends none. */
function outgoing(settlement: Settlement, signer: Address) {
  const needed = new Map<Address, bigint>();
  for (const flow of settlement.flows) {
    if (!same(flow.from, signer)) continue;
    const asset = getAddress(flow.asset);
    needed.set(asset, (needed.get(asset) ?? 0n) + flow.amount);
  }
  if (needed.size === 0) {
    throw new ApiError("XVP_SETTLEMENT_NOT_PARTY", {
      message: `The signing wallet ${signer} sends no leg of the settlement`,
      details: { signer, parties: settlement.row.parties.map((p) => getAddress(p)) },
    });
  }
  return needed;
}

/** An approval: the signer sends a leg, its allowance to the settlement and its balance cover each asset's legs. */
export async function assertApprovable(chain: RequestChain, settlement: Settlement, signer: Address) {
  await assertOpen(chain, settlement);
  const spender = getAddress(settlement.row.id);
  for (const [asset, amount] of outgoing(settlement, signer)) {
    await assertErc20Funds(chain.client, { asset, owner: signer, spender, amount });
  }
}

/** An execution: open, every party approved, and the secret opens the hashlock when there is one. */
export async function assertExecutable(chain: RequestChain, settlement: Settlement, secret: Hex | undefined) {
  await assertOpen(chain, settlement);
  const missing = settlement.approvals.filter((a) => !a.approved).map((a) => getAddress(a.party));
  if (missing.length > 0) {
    throw new ApiError("XVP_SETTLEMENT_NOT_APPROVED", {
      message: `Not approved yet by ${missing.join(", ")}`,
      details: { missingApprovals: missing },
    });
  }
  const { hashlock } = settlement.row;
  if (hashlock !== null && (secret === undefined || keccak256(secret) !== hashlock.toLowerCase())) {
    throw new ApiError("XVP_SETTLEMENT_SECRET_INVALID", {
      message: secret === undefined ? "The settlement has a hashlock: send its secret" : undefined,
      details: { hashlock },
    });
  }
}

/** A cancellation: not executed or cancelled yet, by a sender, a recipient or the creator. */
export async function assertCancellable(chain: RequestChain, settlement: Settlement, signer: Address) {
  await assertOpen(chain, settlement, true);
  const { row } = settlement;
  if (!same(row.creator, signer) && !row.accounts.some((account) => same(account, signer))) {
    throw new ApiError("XVP_SETTLEMENT_NOT_PARTY", {
      message: `The signing wallet ${signer} is neither a party, a recipient nor the creator of the settlement`,
      details: { signer, parties: row.accounts.map((p) => getAddress(p)), creator: getAddress(row.creator) },
    });
  }
}
