// A sender's next operations may wait in the mempool behind its first (ERC-7562 lets a bundler hold several per
// sender): each is validated as if the ones before it had run, with the EntryPoint's nonce for its key set to its
// own sequence number by a state override.
import { type Address, encodeAbiParameters, type Hex, keccak256, toHex } from "viem";
import type { PluginContext } from "../../host/plugin.ts";
import { bundlerDb } from "./tables.ts";

/** NonceManager.nonceSequenceNumber of EntryPoints v0.8 and v0.7: storage slot 1 (StakeManager's deposits take slot 0). */
const NONCE_MAPPING_SLOT = 1n;
const SEQUENCE_BITS = 64n;

/** The storage slot of `nonceSequenceNumber[sender][key]` for the key of `nonce` (its upper 192 bits). */
export function nonceSequenceSlot(sender: Address, nonce: bigint): Hex {
  const outer = keccak256(
    encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [sender, NONCE_MAPPING_SLOT]),
  );
  return keccak256(encodeAbiParameters([{ type: "uint192" }, { type: "bytes32" }], [nonce >> SEQUENCE_BITS, outer]));
}

/** The EntryPoint storage that makes `nonce` the sender's next one. */
export function queuedNonceState(sender: Address, nonce: bigint): { slot: Hex; value: Hex } {
  return { slot: nonceSequenceSlot(sender, nonce), value: toHex(nonce & ((1n << SEQUENCE_BITS) - 1n), { size: 32 }) };
}

/** The nonce before `nonce` under the same key, or undefined for a key's first. */
export function previousNonce(nonce: bigint): bigint | undefined {
  return (nonce & ((1n << SEQUENCE_BITS) - 1n)) === 0n ? undefined : nonce - 1n;
}

/** Whether the operation's predecessor (same chain, sender, key) still waits in the mempool, pending or in a bundle. */
export async function isQueued(
  ctx: PluginContext,
  chainId: number,
  entryPoint: Address,
  sender: Address,
  nonce: bigint,
) {
  const previous = previousNonce(nonce);
  if (previous === undefined) return false;
  const row = await bundlerDb(ctx.db.platform)
    .selectFrom("bundlerUserOperations")
    .select("userOpHash")
    .where("chainId", "=", chainId)
    .where("entryPoint", "=", entryPoint.toLowerCase())
    .where("sender", "=", sender.toLowerCase())
    .where("nonce", "=", previous.toString())
    .where("status", "in", ["pending", "submitted"])
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a refusal is the EntryPoint's AA25: the nonce is not the sender's next one on chain. */
export function isNonceRefusal(error: unknown): boolean {
  const reason = (error as { details?: { reason?: unknown } } | null)?.details?.reason;
  return typeof reason === "string" && reason.startsWith("AA25");
}

/**
 * Validation of an operation that may wait behind its predecessor: first as the chain stands (one simulation and no
 * mempool read when the predecessor is already mined, the usual case); only when that refuses the nonce (AA25) and
 * the predecessor still waits in the mempool, again as if the predecessor had run. Otherwise the first refusal stands.
 */
export async function validateBehindQueue<T>(
  nonce: bigint,
  validate: (queued: boolean) => Promise<T>,
  predecessorWaits: () => Promise<boolean>,
): Promise<T> {
  try {
    return await validate(false);
  } catch (error) {
    if (previousNonce(nonce) === undefined || !isNonceRefusal(error) || !(await predecessorWaits())) throw error;
    return validate(true);
  }
}
