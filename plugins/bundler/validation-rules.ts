// ERC-7562's rules on what an operation's validation may do, checked on the struct-log trace of simulateValidation
// (debug_traceCall): the account's, factory's and paymaster's frames may not read the environment that differs
// between simulation and inclusion (banned opcodes, -32502), and an unstaked paymaster may not return a context for
// postOp (-32505). Frames of the EntryPoint and its SenderCreator are trusted.
import type { Address } from "viem";

/** [OP-011]: values that change between simulation and the bundle's block, or reach outside the operation. */
export const BANNED_OPCODES: ReadonlySet<string> = new Set([
  "GASPRICE",
  "GASLIMIT",
  "DIFFICULTY",
  "PREVRANDAO",
  "TIMESTAMP",
  "BASEFEE",
  "BLOCKHASH",
  "NUMBER",
  "SELFBALANCE",
  "BALANCE",
  "ORIGIN",
  "CREATE",
  "COINBASE",
  "SELFDESTRUCT",
  "INVALID",
  "BLOBHASH",
  "BLOBBASEFEE",
]);
const CALLS = new Set(["CALL", "CALLCODE", "DELEGATECALL", "STATICCALL"]);

export interface StructLog {
  op: string;
  depth: number;
  stack?: string[];
}

export interface BannedOpcode {
  opcode: string;
  /** The frame's address (the storage context: a delegate call runs in its caller's). */
  address: Address;
}

const asAddress = (word: string): Address => `0x${BigInt(word).toString(16).padStart(40, "0").slice(-40)}`;

/**
 * The first banned opcode an untrusted frame executed, if any. `trusted`: lowercase addresses. Without stacks in the
 * trace the frames below the first are unknown (untrusted): a finding then only says a full trace is needed.
 */
export function findBannedOpcode(
  logs: StructLog[],
  entryPoint: Address,
  trusted: Set<string>,
): BannedOpcode | undefined {
  const frames: string[] = [entryPoint.toLowerCase()];
  for (let i = 0; i < logs.length; i++) {
    const { op, depth, stack } = logs[i]!;
    frames.length = depth; // the frames below this depth have returned
    const address = frames[depth - 1] ?? "";
    if (!trusted.has(address)) {
      if (BANNED_OPCODES.has(op)) return { opcode: op, address: address as Address };
      // [OP-012]: GAS only as the gas argument of a call.
      if (op === "GAS" && !CALLS.has(logs[i + 1]?.op ?? "")) return { opcode: op, address: address as Address };
    }
    if (CALLS.has(op) || op === "CREATE2") {
      const target = stack && stack.length >= 2 ? asAddress(stack[stack.length - 2]!).toLowerCase() : "unknown";
      frames[depth] = op === "DELEGATECALL" || op === "CALLCODE" ? address : op === "CREATE2" ? "created" : target;
    }
  }
  return undefined;
}

/** ERC-7562's minimum stake: the chain's native-token figure of the reference bundler, and a day's unstake delay. */
export const MIN_STAKE_WEI = 10n ** 18n / 10n;
export const MIN_UNSTAKE_DELAY_SECONDS = 86_400n;

export interface StakeInfo {
  stake: bigint;
  unstakeDelaySec: bigint;
}

export const isStaked = (info: StakeInfo) =>
  info.stake >= MIN_STAKE_WEI && info.unstakeDelaySec >= MIN_UNSTAKE_DELAY_SECONDS;
