// A validation's simulation run by debug_traceCall under one tracer: the call trace (opcode-rules.ts), the storage
// trace (storage-trace.ts) and the EXTCODE* trace (extcode-trace.ts) differ only in it.
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { TracedCall } from "./opcode-rules.ts";

/** `call` traced under `tracer` (a built-in tracer's name or a JavaScript tracer's code). */
export function traceCall<T>(on: ServedChain, call: TracedCall, tracer: string): Promise<T> {
  return on.request<T>({
    method: "debug_traceCall",
    params: [{ to: call.to, data: call.data }, "latest", { tracer, stateOverrides: call.stateOverrides }],
  });
}
