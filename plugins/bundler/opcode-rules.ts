// ERC-7562's opcode rules on an operation's validation, at the least tracing cost. The callTracer's frames (one
// quick trace, which also gives the simulation's result) name every contract the validation ran; their code is read
// statically once per contract (bytecode-scan.ts). Code with no reachable banned opcode cannot have executed one:
// nothing more is needed. Otherwise struct logs decide: first without stacks (which frames below the EntryPoint ran
// what), then, only for a finding, with stacks (whose frame it was: the EntryPoint's and its SenderCreator's are
// trusted).
//
// GAS is the one rule static reading rarely settles (most accounts use gasleft() when they execute, allowed there):
// an operation whose only static findings are GAS, and whose validation ran the same frames (code, function, gas
// used, outcome) as one whose struct logs were clean, is taken as clean without tracing it again. What remains of
// that rule's purpose, a bundle that validates differently on chain, the bundle's own eth_call before it is sent
// catches (bundle.ts).
import {
  type Address,
  createPublicClient,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
} from "viem";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { reachableBannedOpcode, reachesExtcode, reachesStorage } from "./bytecode-scan.ts";
import { isAllowedPrecompile } from "./call-rules.ts";
import type { CodeHashes } from "./code-hashes.ts";
import { type ExtcodeAccess, extcodeTrace } from "./extcode-trace.ts";
import { traceCall } from "./trace-call.ts";
import { type BannedOpcode, findBannedOpcode, type StructLog } from "./validation-rules.ts";

/** A frame of geth's callTracer: for a delegate call `to` is the code's address; a creation's `input` is its init
 * code and its `output` the deployed code. */
export interface CallFrame {
  type: string;
  to?: string;
  input: string;
  output?: string;
  error?: string;
  gasUsed?: string;
  calls?: CallFrame[];
}

/** An eth_call of the simulations at the EntryPoint's address, with its state overrides (simulation-call.ts);
 * `delegatedTo`: the deployed simulations (lowercase) the EntryPoint's address forwards to, when it does. */
export interface TracedCall {
  to: Address;
  data: Hex;
  stateOverrides: object;
  delegatedTo?: string;
}

/**
 * The trace as the rules read it, as if the simulations' code ran at the EntryPoint's address itself: where the
 * address forwards to the deployed simulations (simulation-call.ts), each call into it (the simulation's own, and its
 * calls back into the EntryPoint) holds one delegate call into them, which is folded into the call.
 */
export function simulationFrame(top: CallFrame, call: TracedCall): CallFrame {
  const simulations = call.delegatedTo;
  if (!simulations) return top;
  const entryPoint = call.to.toLowerCase();
  const fold = (frame: CallFrame): CallFrame => {
    const [only, ...others] = frame.calls ?? [];
    const forwarded =
      frame.to?.toLowerCase() === entryPoint &&
      others.length === 0 &&
      only?.type === "DELEGATECALL" &&
      only.to?.toLowerCase() === simulations;
    const { calls, ...rest } = forwarded ? { ...frame, calls: only.calls } : frame;
    return calls ? { ...rest, calls: calls.map(fold) } : rest;
  };
  return fold(top);
}

export function callTrace(on: ServedChain, call: TracedCall): Promise<CallFrame> {
  return traceCall<CallFrame>(on, call, "callTracer");
}

/** What static reading found in a contract's code, and the code's hash (two proxies of one account share it). */
interface CodeScan {
  codeHash: Hex | undefined;
  /** Where the code was read (lowercase; an EIP-7702 account's delegate); none for code created in the validation. */
  address?: string;
  finding: string | undefined;
  /** It can reach SLOAD/SSTORE/TLOAD/TSTORE (storage-check.ts). */
  storage: boolean;
  /** It can reach EXTCODESIZE/EXTCODECOPY/EXTCODEHASH (OP-041). */
  extcode: boolean;
}

/** What the rules keep between validations, per platform (bundler-state.ts). */
export interface OpcodeRuleCaches {
  /** A client for struct-log traces per node URL (with stacks a factory's deployment can pass viem's 10 MB limit). */
  structLogClients: Map<string, PublicClient>;
  /** Deployed code never changes (EIP-6780), so what its static reading found is kept per chain and address. */
  scans: Map<string, Promise<CodeScan>>;
  /** Validation paths whose struct logs were clean (see the GAS rule above), and those (prefixed `EXTCODE|`) whose
   * untrusted frames ran no EXTCODE* but of the sender (OP-041). */
  cleanPaths: Set<string>;
  /** The path checks in flight (whether clean), which validations of the same path wait for (pathCheck). */
  pathChecks: Map<string, Promise<boolean>>;
}

export function opcodeRuleCaches(): OpcodeRuleCaches {
  return { structLogClients: new Map(), scans: new Map(), cleanPaths: new Set(), pathChecks: new Map() };
}

function structLogClient(on: ServedChain, caches: OpcodeRuleCaches): PublicClient {
  const url = on.chain.rpcUrls.default.http[0]!;
  let client = caches.structLogClients.get(url);
  if (!client) {
    client = createPublicClient({ transport: http(url, { maxResponseBodySize: false, timeout: 30_000 }) });
    caches.structLogClients.set(url, client);
  }
  return client;
}

async function structLogs(
  on: ServedChain,
  caches: OpcodeRuleCaches,
  call: TracedCall,
  withStack: boolean,
): Promise<StructLog[]> {
  const trace = (await structLogClient(on, caches).request({
    method: "debug_traceCall" as never,
    params: [
      { to: call.to, data: call.data },
      "latest",
      {
        stateOverrides: call.stateOverrides,
        disableStack: !withStack,
        disableStorage: true,
        enableMemory: false,
        enableReturnData: false,
      },
    ] as never,
  })) as { structLogs: StructLog[] };
  return trace.structLogs;
}

/** The EntryPoint's SenderCreator (it calls factories): trusted like the EntryPoint. v0.7 and v0.8 both create it in
 * their constructor, the EntryPoint's first CREATE (nonce 1); v0.7 has no getter for it. */
export const senderCreatorOf = (entryPoint: Address): string =>
  getContractAddress({ from: entryPoint, nonce: 1n }).toLowerCase();

const MAX_CACHED = 10_000;
const DELEGATION = "0xef0100"; // EIP-7702: an EOA running another address's code

function remember<T>(cache: Map<string, T> | Set<string>, key: string, value?: T) {
  if (cache.size >= MAX_CACHED) cache.clear();
  if (cache instanceof Map) cache.set(key, value as T);
  else cache.add(key);
}

const scanCode = (code: Hex, address?: string): CodeScan =>
  code === "0x"
    ? { codeHash: undefined, finding: undefined, storage: false, extcode: false }
    : {
        codeHash: keccak256(code),
        ...(address ? { address } : {}),
        finding: reachableBannedOpcode(code),
        storage: reachesStorage(code),
        extcode: reachesExtcode(code),
      };

/** Precompiles' addresses (and the low ones OP-062 keeps for them) hold no code: nothing to ask the node. */
const NO_CODE: Promise<CodeScan> = Promise.resolve(scanCode("0x"));

function scanDeployed(on: ServedChain, caches: OpcodeRuleCaches, address: string): Promise<CodeScan> {
  if (BigInt(address || "0x0") <= LOW_ADDRESSES) return NO_CODE; // e.g. ecrecover, which every ECDSA account calls
  const { scans } = caches;
  const key = `${on.chainId}:${address}`;
  let scan = scans.get(key);
  if (!scan) {
    scan = on.client.getCode({ address: address as Address }).then((code = "0x") => {
      // Asked again next time: no code yet (a precompile, or deployed later), or an EIP-7702 delegation, which its
      // account can point at another delegate any time (the delegate's own code is kept).
      if (code === "0x" || code.startsWith(DELEGATION)) scans.delete(key);
      if (code.startsWith(DELEGATION)) return scanDeployed(on, caches, `0x${code.slice(8, 48)}`);
      return scanCode(code, address);
    });
    remember(scans, key, scan);
  }
  return scan;
}

/** A contract whose code changed (COD-010, code-hashes.ts): its code is read again when next validated. */
export function forgetCode(caches: OpcodeRuleCaches, chainId: number, address: string) {
  caches.scans.delete(`${chainId}:${address}`);
}

/**
 * Every frame below the top one, in call order, with the storage context each runs in (a delegate call runs in its
 * caller's; the top frame's is the EntryPoint's).
 */
function framesOf(top: CallFrame, entryPoint: string): { frames: CallFrame[]; contexts: string[] } {
  const frames: CallFrame[] = [];
  const contexts: string[] = [];
  const walk = (frame: CallFrame, context: string) => {
    for (const child of frame.calls ?? []) {
      const delegated = child.type === "DELEGATECALL" || child.type === "CALLCODE";
      const childContext = delegated ? context : (child.to?.toLowerCase() ?? "");
      frames.push(child);
      contexts.push(childContext);
      walk(child, childContext);
    }
  };
  walk(top, entryPoint);
  return { frames, contexts };
}

/** The accounts an override delegates (EIP-7702, not yet on chain), each to its delegate (lowercase). */
function delegatedByOverride(overrides: object): Map<string, string> {
  const delegated = new Map<string, string>();
  for (const [address, account] of Object.entries(overrides) as [string, { code?: string }][])
    if (account.code?.toLowerCase().startsWith(DELEGATION))
      delegated.set(address.toLowerCase(), `0x${account.code.slice(8, 48).toLowerCase()}`);
  return delegated;
}

/** Each frame's code as static reading sees it. */
async function scanFrames(
  frames: CallFrame[],
  on: ServedChain,
  caches: OpcodeRuleCaches,
  overrides: object,
): Promise<CodeScan[]> {
  // An EIP-7702 sender delegated by the simulation's override (not yet on chain) runs its delegate's code.
  const delegated = delegatedByOverride(overrides);
  const created = new Map<string, string>();
  for (const frame of frames)
    if (frame.type.startsWith("CREATE") && frame.to) created.set(frame.to.toLowerCase(), frame.output ?? "0x");
  return Promise.all(
    frames.map(async (frame) => {
      if (frame.type.startsWith("CREATE")) return scanCode(frame.input as Hex); // init code
      const to = frame.to?.toLowerCase() ?? "";
      const code = created.get(to);
      return code !== undefined ? scanCode(code as Hex) : scanDeployed(on, caches, delegated.get(to) ?? to);
    }),
  );
}

/**
 * The validation's path as its frames show it: which code ran which function (a precompile's input is data, not a
 * function), the gas each frame used, how it ended. Addresses are left out: the accounts of one implementation
 * share a path.
 */
function pathOf(chainId: number, frames: CallFrame[], scans: CodeScan[]): string {
  const shape = frames.map((frame, i) => {
    const { codeHash } = scans[i]!;
    return [
      frame.type,
      codeHash ?? frame.to,
      codeHash ? frame.input.slice(0, 10) : "",
      frame.gasUsed,
      frame.error ?? "",
    ].join(":");
  });
  return `${chainId}|${shape.join("|")}`;
}

/** A traced validation's frames, their storage contexts and their code as static reading sees it: read once, judged
 * by each rule below. */
export interface ScannedValidation {
  call: TracedCall;
  frames: CallFrame[];
  contexts: string[];
  scans: CodeScan[];
}

export async function scanValidation(
  on: ServedChain,
  caches: OpcodeRuleCaches,
  call: TracedCall,
  top: CallFrame,
): Promise<ScannedValidation> {
  const { frames, contexts } = framesOf(top, call.to.toLowerCase());
  return { call, frames, contexts, scans: await scanFrames(frames, on, caches, call.stateOverrides) };
}

/** The banned opcode the traced validation ran in an untrusted frame, if any. */
export async function bannedOpcode(
  on: ServedChain,
  caches: OpcodeRuleCaches,
  { call, frames, scans: read }: ScannedValidation,
): Promise<BannedOpcode | undefined> {
  const entryPoint = call.to;
  const trusted = trustedOf(entryPoint);
  // A trusted frame's code counts as clean (a creation's init code is judged whoever runs it).
  const scans = read.map((scan, i) =>
    !frames[i]!.type.startsWith("CREATE") && trusted.has(frames[i]!.to?.toLowerCase() ?? "")
      ? { ...scan, finding: undefined }
      : scan,
  );
  const findings = scans.flatMap((scan) => (scan.finding ? [scan.finding] : []));
  if (findings.length === 0) return undefined;
  const check = async () => {
    // Without stacks the frames below the EntryPoint are unknown (untrusted): a finding there needs the stacks.
    const onlyEntryPoint = new Set([entryPoint.toLowerCase()]);
    let finding = findBannedOpcode(await structLogs(on, caches, call, false), entryPoint, onlyEntryPoint);
    if (finding) finding = findBannedOpcode(await structLogs(on, caches, call, true), entryPoint, trusted);
    return { clean: finding === undefined, finding };
  };
  if (!findings.every((finding) => finding === "GAS")) return (await check()).finding;
  return pathCheck(caches, pathOf(on.chainId, frames, scans), check);
}

/**
 * A validation path's check, one at a time per path: a validation whose path is known clean, or turns out clean by
 * the check in flight when it came, needs no trace of its own (a burst of new senders of one account's code costs one
 * trace, not one each, which under 128 at once kept the node busy past the requests' deadline).
 */
export async function pathCheck<T>(
  caches: OpcodeRuleCaches,
  path: string,
  check: () => Promise<{ clean: boolean; finding?: T }>,
): Promise<T | undefined> {
  if (caches.cleanPaths.has(path)) return undefined;
  const inFlight = caches.pathChecks.get(path);
  if (inFlight && (await inFlight)) return undefined;
  const checked = check();
  if (!inFlight) {
    const clean = checked.then(
      (result) => result.clean,
      () => false,
    );
    caches.pathChecks.set(path, clean);
    void clean.then(() => {
      if (caches.pathChecks.get(path) === clean) caches.pathChecks.delete(path);
    });
  }
  const { clean, finding } = await checked;
  if (clean) remember(caches.cleanPaths, path);
  return finding;
}

/** The EntryPoint's frames and its SenderCreator's (lowercase): their code is trusted. */
const trustedOf = (entryPoint: Address) => new Set([entryPoint.toLowerCase(), senderCreatorOf(entryPoint)]);

/**
 * [OP-041]: the first call of the traced validation to an address without code (its code could be deployed between
 * validation and inclusion), the sender's aside [OP-042] and the low addresses OP-062 judges (call-rules.ts). Code
 * already read is cached, so an operation whose calls all reach code costs no further request. EXTCODE* on such an
 * address: extcodeWithoutCode below.
 */
export function callWithoutCode(
  { frames, scans }: ScannedValidation,
  sender: Address,
): { from: string; to: string } | undefined {
  const frame = frames.find((frame, i) => {
    const to = frame.to?.toLowerCase() ?? "";
    return (
      CALL_TYPES.has(frame.type) &&
      to !== sender.toLowerCase() &&
      BigInt(to || "0x0") > LOW_ADDRESSES &&
      scans[i]!.codeHash === undefined
    );
  });
  return frame
    ? { from: (frame as { from?: string }).from?.toLowerCase() ?? "", to: frame.to!.toLowerCase() }
    : undefined;
}

const CALL_TYPES = new Set(["CALL", "STATICCALL", "DELEGATECALL", "CALLCODE"]);
/** Precompiles and the addresses OP-062 keeps for them (call-rules.ts). */
const LOW_ADDRESSES = 0x3ffn;

/**
 * Whether the traced validation may have accessed storage other than the sender's, the EntryPoint's or its
 * SenderCreator's: a frame in another storage context (a delegate call runs in its caller's) whose code can reach a
 * storage instruction. Only then do ERC-7562's storage rules need their trace (storage-trace.ts).
 */
export function mayAccessForeignStorage({ call, contexts, scans }: ScannedValidation, sender: Address): boolean {
  const own = new Set([call.to.toLowerCase(), senderCreatorOf(call.to), sender.toLowerCase()]);
  return scans.some((scan, i) => scan.storage && !own.has(contexts[i]!));
}

/**
 * [OP-041]: the first EXTCODESIZE/EXTCODEHASH/EXTCODECOPY an untrusted frame of the traced validation ran on an address
 * without code, the sender's aside [OP-042] (a factory asks whether it exists; code deployed in the validation
 * counts) and the precompiles OP-062 allows (as the reference bundler's tracer leaves its precompiles out). Only
 * when a frame's code can reach one (the static reading) does a trace say which ran (extcode-trace.ts; `traced`: what
 * the storage trace recorded, when the validation needed that one);
 * a validation path (as the GAS rule's) whose trace showed none is not traced again: the instructions a path runs do
 * not change while its code, functions and gas do. A path that read some other address is traced each time (what it
 * reads may come from the operation).
 */
export async function extcodeWithoutCode(
  on: ServedChain,
  caches: OpcodeRuleCaches,
  { call, frames, scans }: ScannedValidation,
  sender: Address,
  traced?: ExtcodeAccess[],
): Promise<ExtcodeAccess | undefined> {
  const trusted = trustedOf(call.to);
  const judged = (frame: CallFrame) => frame.type.startsWith("CREATE") || !trusted.has(frame.to?.toLowerCase() ?? "");
  if (!scans.some((scan, i) => scan.extcode && judged(frames[i]!))) return undefined;
  const own = sender.toLowerCase();
  return pathCheck(caches, `EXTCODE|${pathOf(on.chainId, frames, scans)}`, async () => {
    const accesses = (traced ?? (await extcodeTrace(on, call))).filter(
      (access) => !trusted.has(access.from) && access.to !== own && !isAllowedPrecompile(access.to),
    );
    if (accesses.length === 0) return { clean: true };
    const created = new Set(
      frames.flatMap((frame) => (frame.type.startsWith("CREATE") && frame.to ? [frame.to.toLowerCase()] : [])),
    );
    const judgedAccesses = accesses.filter((access) => !created.has(access.to));
    const codeHashes = await Promise.all(
      judgedAccesses.map(async (access) => (await scanDeployed(on, caches, access.to)).codeHash),
    );
    return { clean: false, finding: judgedAccesses.find((_, i) => codeHashes[i] === undefined) };
  });
}

/**
 * [COD-010] The code hash of each contract the traced validation ran, but the EntryPoint's and its SenderCreator's
 * and code created in the validation: what the bundle checks again (code-hashes.ts). An EIP-7702 account delegated on
 * chain ran its delegate's code: both the delegate's hash and the account's (EXTCODEHASH of its delegation, which it
 * can point elsewhere any time) are kept; one delegated by the operation's own authorisation only has it on chain
 * once its bundle runs, so only its delegate's is.
 */
export function visitedCode({ call, frames, scans }: ScannedValidation): CodeHashes {
  const trusted = trustedOf(call.to);
  const byOverride = delegatedByOverride(call.stateOverrides);
  const visited: CodeHashes = {};
  frames.forEach((frame, i) => {
    const { address, codeHash } = scans[i]!;
    const to = frame.to?.toLowerCase() ?? "";
    if (!address || !codeHash || frame.type.startsWith("CREATE") || trusted.has(to)) return;
    visited[address] = codeHash;
    if (to !== address && !byOverride.has(to)) visited[to] = keccak256(`${DELEGATION}${address.slice(2)}`);
  });
  return visited;
}
