// ERC-7562's COD-010: between an operation's validation (its acceptance, safe mode) and its bundle, the code of no
// contract its validation ran may change. Acceptance keeps those contracts' code hashes with the mempool row
// (opcode-rules.ts visitedCode); a bundling run reads the current hashes of all its pending operations' contracts in
// one eth_call (EXTCODEHASH of each, by code a state override places at an unused address) and drops an operation
// whose code changed, as the reference bundler and Alto do on their second validation. The bundle's own eth_call
// (bundle.ts) would let it through as long as it still validates.
import { type Address, type Hex, pad, sliceHex } from "viem";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { BundlerDb, UserOperationRow } from "./tables.ts";

/** Each contract's code hash (keccak256 of its code) as the validation saw it, by address (lowercase). */
export type CodeHashes = Record<string, Hex>;

/**
 * For each 32-byte word of calldata, EXTCODEHASH of that address, returned in order: PUSH1 0, loop: JUMPDEST
 * CALLDATASIZE DUP2 LT PUSH1 body JUMPI; CALLDATASIZE PUSH1 0 RETURN; body: JUMPDEST DUP1 CALLDATALOAD EXTCODEHASH
 * DUP2 MSTORE PUSH1 32 ADD PUSH1 loop JUMP.
 */
export const CODE_HASHES_CODE: Hex = "0x60005b368110600d57366000f35b80353f8152602001600256";
/** Where the eth_call runs that code (an override: nothing is deployed there). */
const CODE_HASHES_AT: Address = "0x00000000000000000000000000000000c0d3c0de";

/** The current code hash of each address (0x0 for an account that does not exist), by one eth_call. */
export async function currentCodeHashes(on: ServedChain, addresses: string[]): Promise<Map<string, Hex>> {
  if (addresses.length === 0) return new Map();
  const { data = "0x" } = await on.client.call({
    to: CODE_HASHES_AT,
    data: `0x${addresses.map((address) => pad(address as Hex).slice(2)).join("")}`,
    stateOverride: [{ address: CODE_HASHES_AT, code: CODE_HASHES_CODE }],
  });
  return new Map(addresses.map((address, i) => [address, sliceHex(data, i * 32, (i + 1) * 32)]));
}

/** The first contract whose code is no longer what the validation saw (pure). */
export function changedCode(seen: CodeHashes | null, current: Map<string, Hex>): string | undefined {
  return Object.entries(seen ?? {}).find(([address, hash]) => current.get(address) !== hash)?.[0];
}

/**
 * [COD-010] The pending operations whose validation's code changed are failed, and the contracts named to
 * `changed` (their code is read again at the next validation). Returns the operations a run may bundle: the others,
 * less those of a failed one's sender (they wait in the mempool: without it their nonce does not run).
 */
export async function withoutChangedCode(
  db: BundlerDb,
  on: ServedChain,
  rows: UserOperationRow[],
  changed: (address: string) => void,
): Promise<UserOperationRow[]> {
  const addresses = [...new Set(rows.flatMap((row) => Object.keys(row.validationCodeHashes ?? {})))];
  if (addresses.length === 0) return rows; // unsafe mode records none: nothing to read
  const current = await currentCodeHashes(on, addresses);
  const dropped = new Set<string>();
  for (const row of rows) {
    const address = changedCode(row.validationCodeHashes, current);
    if (address === undefined) continue;
    changed(address);
    dropped.add(row.sender);
    await db
      .updateTable("bundlerUserOperations")
      .set({
        status: "failed",
        failureReason: `[COD-010] the code of ${address} changed after the operation's validation (ERC-7562)`,
        updatedAt: new Date(),
      })
      .where("userOpHash", "=", row.userOpHash)
      .where("status", "=", "pending")
      .execute();
  }
  return dropped.size === 0 ? rows : rows.filter((row) => !dropped.has(row.sender));
}
