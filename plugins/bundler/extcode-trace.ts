// The EXTCODESIZE/EXTCODEHASH/EXTCODECOPY a validation ran, for ERC-7562's OP-041 (opcode-rules.ts): one
// debug_traceCall of the simulation with a JavaScript tracer (geth's tracer API, which anvil also runs, like
// storage-trace.ts) that keeps only each such instruction's frame (its storage context: a delegate call's is its
// caller's) and the address it reads. The response stays small whatever the validation ran. A validation that needs
// the storage trace gets these from it (the same step), not from a trace of its own.
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { TracedCall } from "./opcode-rules.ts";
import { traceCall } from "./trace-call.ts";

/** A tracer's step (its instruction in `op`) that records an EXTCODE* in `this.extcode` and returns. The stack holds
 * the address as a number: padded to 20 bytes here (EXTCODE* reads its low 160 bits). */
export const RECORD_EXTCODE = `if (op === "EXTCODESIZE" || op === "EXTCODEHASH" || op === "EXTCODECOPY") {
      var target = "0000000000000000000000000000000000000000" + log.stack.peek(0).toString(16);
      this.extcode.push([op, toHex(log.contract.getAddress()), "0x" + target.slice(-40)]);
      return;
    }`;

const TRACER = `{
  extcode: [], error: "",
  step: function (log) {
    try {
      var op = log.op.toString();
      ${RECORD_EXTCODE}
    } catch (e) { if (!this.error) this.error = String(e); }
  },
  fault: function () {},
  result: function () { return { extcode: this.extcode, error: this.error }; }
}`;

/** [opcode, the frame's address, the address read] */
export type RawExtcodeAccess = [string, string, string];

interface TracerResult {
  extcode: RawExtcodeAccess[];
  /** The tracer's own failure (what it recorded is then incomplete). */
  error?: string;
}

export interface ExtcodeAccess {
  opcode: string;
  /** The frame's address (lowercase). */
  from: string;
  /** The address whose code it read (lowercase). */
  to: string;
}

/** The tracer's raw accesses as the rule takes them (pure: tested beside). */
export const extcodeAccessesOf = (raw: RawExtcodeAccess[]): ExtcodeAccess[] =>
  raw.map(([opcode, from, to]) => ({ opcode, from: from.toLowerCase(), to: to.toLowerCase() }));

export async function extcodeTrace(on: ServedChain, call: TracedCall): Promise<ExtcodeAccess[]> {
  const result = await traceCall<TracerResult>(on, call, TRACER);
  // Incomplete accesses could let a breach through: the validation is not judged on them.
  if (result.error) throw new Error(`The EXTCODE* trace failed: ${result.error}`);
  return extcodeAccessesOf(result.extcode);
}
