// eth_estimateUserOperationGas' third parameter: a state override set in the format of eth_call's (per address: balance,
// nonce, code, and either `state`, which replaces the account's storage, or `stateDiff`, which changes some slots),
// turned into viem's form, and merged with the overrides the simulation sets itself (viem refuses one address twice).
import { z } from "@hono/zod-openapi";
import type { Address, Hex, StateOverride } from "viem";

const quantity = z.string().regex(/^0x[0-9a-fA-F]{1,64}$/, "a hex quantity");
const word = z.string().regex(/^0x[0-9a-fA-F]{1,64}$/, "a 32-byte hex word");
const storage = z.record(word, word);

export const StateOverrideSchema = z.record(
  z.string().regex(/^0x[0-9a-fA-F]{40}$/, "an address"),
  z
    .object({
      balance: quantity.optional(),
      nonce: quantity.optional(),
      code: z
        .string()
        .regex(/^0x([0-9a-fA-F]{2})*$/, "0x-prefixed hex bytes")
        .optional(),
      state: storage.optional(),
      stateDiff: storage.optional(),
    })
    .strict()
    .refine((account) => !(account.state && account.stateDiff), "state and stateDiff exclude each other"),
);
export type RpcStateOverride = z.infer<typeof StateOverrideSchema>;

const padded = (hex: string) => `0x${hex.slice(2).toLowerCase().padStart(64, "0")}` as Hex;
const slots = (record: Record<string, string>) =>
  Object.entries(record).map(([slot, value]) => ({ slot: padded(slot), value: padded(value) }));

/** The caller's override set in viem's form (storage keys and values as full 32-byte words). */
export function toStateOverride(rpc: RpcStateOverride | undefined): StateOverride {
  return Object.entries(rpc ?? {}).map(([address, account]) => ({
    address: address as Address,
    ...(account.balance !== undefined ? { balance: BigInt(account.balance) } : {}),
    ...(account.nonce !== undefined ? { nonce: Number(BigInt(account.nonce)) } : {}),
    ...(account.code !== undefined ? { code: account.code as Hex } : {}),
    ...(account.state
      ? { state: slots(account.state) }
      : account.stateDiff
        ? { stateDiff: slots(account.stateDiff) }
        : {}),
  }));
}

type AccountOverride = StateOverride[number];
type Slots = NonNullable<AccountOverride["stateDiff"]>;

/** Slots of `base` changed by `change` (a later value for a slot wins). */
function withSlots(base: Slots | undefined, change: Slots): Slots {
  const merged = new Map((base ?? []).map((entry) => [entry.slot.toLowerCase(), entry]));
  for (const entry of change) merged.set(entry.slot.toLowerCase(), entry);
  return [...merged.values()];
}

/** One override per address: each later set's fields win over the earlier ones', storage slot by slot. */
export function mergeStateOverrides(...sets: StateOverride[]): StateOverride {
  const byAddress = new Map<string, AccountOverride>();
  for (const account of sets.flat()) {
    const key = account.address.toLowerCase();
    const before = byAddress.get(key);
    if (!before) {
      byAddress.set(key, { ...account });
      continue;
    }
    const { state, stateDiff, ...fields } = account;
    const merged: AccountOverride = { ...before, ...fields };
    if (state) {
      merged.state = state; // replaces the whole storage: earlier slot changes are gone
      delete merged.stateDiff;
    } else if (stateDiff) {
      if (merged.state) merged.state = withSlots(merged.state, stateDiff);
      else merged.stateDiff = withSlots(merged.stateDiff, stateDiff);
    }
    byAddress.set(key, merged);
  }
  return [...byAddress.values()];
}

/** An override set in eth_call's (and debug_traceCall's) JSON form, from viem's. */
export function toRpcStateOverride(set: StateOverride): RpcStateOverride {
  const storageOf = (entries: Slots) => Object.fromEntries(entries.map(({ slot, value }) => [slot, value]));
  return Object.fromEntries(
    set.map(({ address, balance, nonce, code, state, stateDiff }) => [
      address,
      {
        ...(balance !== undefined ? { balance: `0x${balance.toString(16)}` } : {}),
        ...(nonce !== undefined ? { nonce: `0x${nonce.toString(16)}` } : {}),
        ...(code !== undefined ? { code } : {}),
        ...(state ? { state: storageOf(state) } : stateDiff ? { stateDiff: storageOf(stateDiff) } : {}),
      },
    ]),
  );
}
