// ERC-7562's rules on the calls an operation's validation makes, decided on the callTracer's frames (pure: no chain
// here). The EntryPoint may be called only by the account's fallback (paying its prefund, OP-053) or `depositTo` from
// the account or its factory (OP-052); any other access to it is forbidden (OP-054), and a call with value to anything
// else too (OP-061). CREATE2 runs once, in the factory's deployment, and creates the sender (OP-031). Of the
// precompiles only those that read nothing of the chain may be called (OP-062). No frame may end out of gas (OP-020:
// a caught out-of-gas leaks the gas limit or call depth, which differ on chain). The EntryPoint's and its
// SenderCreator's own calls (to the entities) are trusted.
import { type Address, toFunctionSelector } from "viem";

/** A callTracer frame as the rules read it (geth's fields; `value` is absent for calls that cannot carry one). */
export interface TracedCallFrame {
  type: string;
  from?: string;
  to?: string;
  input: string;
  value?: string;
  /** Why the frame reverted (geth's and anvil's "out of gas" for an exhausted frame). */
  error?: string;
  calls?: TracedCallFrame[];
}

export type CallRule = "OP-020" | "OP-031" | "OP-054" | "OP-061" | "OP-062";

export interface CallBreach {
  rule: CallRule;
  from: string;
  to: string;
  reason: string;
}

const DEPOSIT_TO = toFunctionSelector("depositTo(address)");

/**
 * [OP-062]: the precompiles that read nothing of the chain (ecrecover … point evaluation, BLS12-381 of Prague,
 * P256VERIFY at 0x100); any other address this low is a precompile some chain may define to read its state.
 */
const ALLOWED_PRECOMPILES = new Set([...Array.from({ length: 0x11 }, (_, i) => BigInt(i + 1)), 0x100n]);
const PRECOMPILE_RANGE = 0x3ffn;

/** Whether `address` is one of the precompiles OP-062 allows (code-less, yet no OP-041 finding: it is the chain's). */
export const isAllowedPrecompile = (address: string): boolean => ALLOWED_PRECOMPILES.has(BigInt(address));

export interface CallEntities {
  entryPoint: Address;
  senderCreator: string;
  sender: Address;
  /** The factory deploying the sender, if the operation has one. */
  factory?: string;
}

/** The first call of the traced validation that ERC-7562 forbids, if any (frames in call order). */
export function callBreach(top: TracedCallFrame, entities: CallEntities): CallBreach | undefined {
  const entryPoint = entities.entryPoint.toLowerCase();
  const trusted = new Set([entryPoint, entities.senderCreator.toLowerCase()]);
  const sender = entities.sender.toLowerCase();
  const factory = entities.factory?.toLowerCase();
  let created = 0;
  const check = (frame: TracedCallFrame, deploying: boolean): CallBreach | undefined => {
    const from = frame.from?.toLowerCase() ?? "";
    const to = frame.to?.toLowerCase() ?? "";
    if (frame.error && /out of gas/i.test(frame.error))
      return { rule: "OP-020", from, to, reason: "a call ran out of gas (the gas left would differ on chain)" };
    if (frame.type === "CREATE2") {
      created += 1;
      if (!deploying || !factory || to !== sender || created > 1)
        return {
          rule: "OP-031",
          from,
          to,
          reason: "CREATE2 may only create the sender, once, in its factory's deployment",
        };
    }
    const target = to ? BigInt(to) : 0n;
    if (target > 0n && target <= PRECOMPILE_RANGE && !ALLOWED_PRECOMPILES.has(target))
      return { rule: "OP-062", from, to, reason: "only precompiles that read nothing of the chain may be called" };
    if (!trusted.has(from)) {
      if (to === entryPoint) {
        const selector = frame.input.slice(0, 10).toLowerCase();
        const fallback = frame.input === "0x" || frame.input === "";
        if (!(fallback && from === sender) && !(selector === DEPOSIT_TO && (from === sender || from === factory)))
          return {
            rule: "OP-054",
            from,
            to,
            reason: fallback
              ? "only the account may call the EntryPoint's fallback (OP-053)"
              : "only the account or its factory may call the EntryPoint, and only depositTo (OP-052)",
          };
      } else if (BigInt(frame.value ?? "0x0") > 0n)
        return { rule: "OP-061", from, to, reason: "a call with value may only go to the EntryPoint" };
    }
    // The SenderCreator's call into the factory, and all below it, is the deployment phase.
    const below = deploying || to === entities.senderCreator.toLowerCase();
    for (const call of frame.calls ?? []) {
      const breach = check(call, below);
      if (breach) return breach;
    }
    return undefined;
  };
  for (const call of top.calls ?? []) {
    const breach = check(call, false);
    if (breach) return breach;
  }
  return undefined;
}
