// A static reading of EVM bytecode for ERC-7562's opcode rules: the instructions a contract can execute (a linear
// sweep that skips PUSH data; after a halt or jump only a JUMPDEST is reachable again, so a contract's metadata and
// data tails are not read as code). Code with no reachable banned opcode cannot execute one, whatever its input:
// validation that ran only such code needs no opcode-level trace.
import { type Hex, hexToBytes } from "viem";
import { BANNED_OPCODES } from "./validation-rules.ts";

const NAMES: Record<number, string> = {
  58: "GASPRICE",
  69: "GASLIMIT",
  68: "PREVRANDAO",
  66: "TIMESTAMP",
  72: "BASEFEE",
  64: "BLOCKHASH",
  67: "NUMBER",
  71: "SELFBALANCE",
  49: "BALANCE",
  50: "ORIGIN",
  240: "CREATE",
  65: "COINBASE",
  255: "SELFDESTRUCT",
  254: "INVALID",
  73: "BLOBHASH",
  74: "BLOBBASEFEE",
};
const GAS = 0x5a;
const JUMPDEST = 0x5b;
const CALLS = new Set([0xf1, 0xf2, 0xf4, 0xfa]);
/** STOP, JUMP, RETURN, REVERT, INVALID, SELFDESTRUCT: the next instruction is reached only by a jump. */
const HALTS = new Set([0x00, 0x56, 0xf3, 0xfd, 0xfe, 0xff]);
const pushSize = (op: number) => (op >= 0x60 && op <= 0x7f ? op - 0x5f : 0);
/** SLOAD, SSTORE, TLOAD, TSTORE: what ERC-7562's storage rules judge. */
const STORAGE = new Set([0x54, 0x55, 0x5c, 0x5d]);
/** EXTCODESIZE, EXTCODECOPY, EXTCODEHASH: OP-041 judges the address they read. */
const EXTCODE = new Set([0x3b, 0x3c, 0x3f]);

/** Each reachable instruction of `bytes` and the byte after it (what a PUSH pushes is skipped). */
function* reachableInstructions(bytes: Uint8Array): Generator<[op: number, next: number | undefined]> {
  let reachable = true;
  for (let pc = 0; pc < bytes.length; pc += 1 + pushSize(bytes[pc]!)) {
    const op = bytes[pc]!;
    if (op === JUMPDEST) reachable = true;
    if (!reachable) continue;
    yield [op, bytes[pc + 1]];
    if (HALTS.has(op)) reachable = false;
  }
}

for (const name of Object.values(NAMES))
  if (!BANNED_OPCODES.has(name)) throw new Error(`${name} is not an ERC-7562 banned opcode`);

/**
 * The first banned opcode `code` can execute (or GAS not used as a call's gas argument), or undefined when none is
 * reachable. A finding may be unreachable in fact (e.g. a JUMPDEST byte inside a data section): it only says a full
 * trace must decide.
 */
export function reachableBannedOpcode(code: Hex): string | undefined {
  for (const [op, next] of reachableInstructions(hexToBytes(code))) {
    const banned = NAMES[op];
    if (banned) return banned;
    if (op === GAS && !CALLS.has(next ?? -1)) return "GAS";
  }
  return undefined;
}

function reachesAny(code: Hex, ops: Set<number>): boolean {
  for (const [op] of reachableInstructions(hexToBytes(code))) if (ops.has(op)) return true;
  return false;
}

/** Whether `code` can reach a storage or transient-storage access; code that cannot needs no storage trace. */
export const reachesStorage = (code: Hex): boolean => reachesAny(code, STORAGE);

/** Whether `code` can reach EXTCODESIZE/EXTCODECOPY/EXTCODEHASH; code that cannot needs no EXTCODE* trace. */
export const reachesExtcode = (code: Hex): boolean => reachesAny(code, EXTCODE);
