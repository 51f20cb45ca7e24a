// The storage accesses of a validation, for ERC-7562's storage rules (storage-rules.ts): one debug_traceCall of the
// simulation with a JavaScript tracer (geth's tracer API, which anvil also runs) that keeps only what the rules read:
// each SLOAD/SSTORE/TLOAD/TSTORE below the EntryPoint with its storage's address and slot, tagged by the EntryPoint's
// call it ran under (the factory's, account's or paymaster's validation), and the keccak inputs that begin with an
// address (what makes a slot associated with one), and each EXTCODE* below it (OP-041, extcode-trace.ts: one trace
// serves both rules). The response stays small whatever the validation ran.
import type { Hex } from "viem";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { type ExtcodeAccess, extcodeAccessesOf, type RawExtcodeAccess, RECORD_EXTCODE } from "./extcode-trace.ts";
import type { TracedCall } from "./opcode-rules.ts";
import type { EntityRole, StorageAccess } from "./storage-rules.ts";
import { traceCall } from "./trace-call.ts";

/** The longest keccak input kept: a mapping key and its slot are 64 bytes; nested keys a few words more. */
const MAX_KECCAK_INPUT = 256;

/** The tracer for a simulation whose EntryPoint frame runs at `depth` (2 when the EntryPoint's address forwards to
 * the deployed simulations, simulation-call.ts): the frames above it record nothing. */
const tracerAt = (depth: number) => `{
  phase: "", accesses: [], keccak: [], extcode: [], error: "",
  step: function (log) {
    try { this.record(log); } catch (e) { if (!this.error) this.error = String(e); }
  },
  record: function (log) {
    var op = log.op.toString();
    var depth = log.getDepth();
    if (depth < ${depth}) return;
    if (depth === ${depth}) {
      if (op === "CALL" || op === "STATICCALL") this.phase = toHex(toAddress(log.stack.peek(1).toString(16)));
      return;
    }
    ${RECORD_EXTCODE}
    if (op === "SLOAD" || op === "SSTORE" || op === "TLOAD" || op === "TSTORE") {
      this.accesses.push([this.phase, toHex(log.contract.getAddress()), "0x" + log.stack.peek(0).toString(16),
        op === "SSTORE" || op === "TSTORE"]);
    } else if (op === "KECCAK256") {
      var offset = Number(log.stack.peek(0)), size = Number(log.stack.peek(1));
      if (size >= 32 && size <= ${MAX_KECCAK_INPUT}) {
        // Memory not yet written is zero, and slicing past its end throws: read what there is, pad the rest.
        var end = Math.min(offset + size, log.memory.length());
        var input = end > offset ? toHex(log.memory.slice(offset, end)) : "0x";
        input += "00".repeat(offset + size - Math.max(end, offset));
        if (input.slice(2, 26) === "000000000000000000000000") this.keccak.push(input);
      }
    }
  },
  fault: function () {},
  result: function () { return { accesses: this.accesses, keccak: this.keccak, extcode: this.extcode, error: this.error }; }
}`;

const TRACER = tracerAt(1);
const DELEGATED_TRACER = tracerAt(2);

interface TracerResult {
  /** [the EntryPoint's callee, the storage's address, slot, write] */
  accesses: [string, string, string, boolean][];
  keccak: Hex[];
  extcode?: RawExtcodeAccess[];
  /** The tracer's own failure (what it recorded is then incomplete). */
  error?: string;
}

export interface StorageTrace {
  accesses: StorageAccess[];
  keccakInputs: Hex[];
  /** Each EXTCODE* below the EntryPoint (OP-041). */
  extcode: ExtcodeAccess[];
}

/** The EntryPoint's callees whose validation the rules judge: the SenderCreator (it calls the factory), the sender,
 * the paymaster (lowercase). Accesses under any other callee of the EntryPoint are its own doing. */
export interface ValidationCallees {
  senderCreator: string;
  sender: string;
  paymaster?: string;
}

function roleOf(callee: string, callees: ValidationCallees): EntityRole | undefined {
  if (callee === callees.sender) return "account";
  if (callee === callees.senderCreator) return "factory";
  if (callee === callees.paymaster) return "paymaster";
  return undefined;
}

/** The tracer's raw result as the rules take it (pure: tested beside). */
export function storageTraceOf(result: TracerResult, callees: ValidationCallees): StorageTrace {
  const accesses: StorageAccess[] = [];
  for (const [callee, address, slot, write] of result.accesses) {
    const role = roleOf(callee.toLowerCase(), callees);
    if (role) accesses.push({ role, address: address.toLowerCase(), slot: slot as Hex, write });
  }
  return { accesses, keccakInputs: result.keccak, extcode: extcodeAccessesOf(result.extcode ?? []) };
}

export async function storageTrace(
  on: ServedChain,
  call: TracedCall,
  callees: ValidationCallees,
): Promise<StorageTrace> {
  const result = await traceCall<TracerResult>(on, call, call.delegatedTo ? DELEGATED_TRACER : TRACER);
  // Incomplete accesses could let a breach through: the validation is not judged on them.
  if (result.error) throw new Error(`The storage trace failed: ${result.error}`);
  return storageTraceOf(result, callees);
}
