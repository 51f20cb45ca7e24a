// Key classification: what a custody key may sign. Its kinds: `operational` keys sign every kind of write; `treasury`
// keys only moves of value (transfers, approvals, permits, sale withdrawals), never a mint or a governance change. Its
// value limit (wallets.custody_max_value, none when null): the most one write may move, in the native currency's wei
// or in the token's base units (the amount of a transfer, approval, mint or burn, a batch's total).
import { decodeFunctionData, type Hex, parseAbi } from "viem";
import type { WalletsTable } from "../db/platform-types.ts";

export type KeyClassification = Exclude<WalletsTable["custodyClassification"]["__select__"], undefined>;

const TREASURY_KINDS = new Set([
  "token.transfer",
  "token.approve",
  "token.permit",
  "externalToken.approve",
  "tokenSale.withdraw",
]);

/** The calls whose amount is the value they move (ERC-20 and the platform token's supply and custody calls). */
const VALUE_CALLS = parseAbi([
  "function transfer(address to, uint256 amount)",
  "function transferFrom(address from, address to, uint256 amount)",
  "function approve(address spender, uint256 amount)",
  "function mint(address to, uint256 amount)",
  "function burn(address from, uint256 amount)",
  "function forcedTransfer(address from, address to, uint256 amount)",
  "function batchMint(address[] to, uint256[] amounts)",
  "function batchBurn(address[] from, uint256[] amounts)",
]);

export interface KeyPolicy {
  classification: KeyClassification;
  /** The most one write may move, or null: no limit. */
  maxValue: bigint | null;
}

export function classificationAllows(classification: KeyClassification, kind: string): boolean {
  return classification === "operational" || TREASURY_KINDS.has(kind);
}

/** What a write moves: its native value, or the amount its call moves when that is larger. */
export function valueMoved(write: { data: Hex; value: bigint }): bigint {
  let amount = 0n;
  try {
    const { args } = decodeFunctionData({ abi: VALUE_CALLS, data: write.data });
    const last = args.at(-1);
    amount = Array.isArray(last) ? (last as readonly bigint[]).reduce((sum, a) => sum + a, 0n) : (last as bigint);
  } catch {
    // Not a call that moves an amount.
  }
  return amount > write.value ? amount : write.value;
}

/** Why the key may not sign the write (`kind` or `value`), or undefined when it may. */
export function policyRefusal(
  policy: KeyPolicy,
  write: { kind: string; data: Hex; value: bigint },
): "kind" | "value" | undefined {
  if (!classificationAllows(policy.classification, write.kind)) return "kind";
  if (policy.maxValue !== null && valueMoved(write) > policy.maxValue) return "value";
  return undefined;
}
