// Validation by simulation: EntryPoints v0.8 and v0.7 keep simulateValidation and simulateHandleOp in
// EntryPointSimulations, run at the EntryPoint's address against its storage (deposits, nonces) by a state override
// (simulation-call.ts). A refusal becomes the ERC-7769 code.
import {
  type Address,
  BaseError,
  decodeErrorResult,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  type StateOverride,
} from "viem";
import { entryPoint08Abi, type PackedUserOperation } from "viem/account-abstraction";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { callBreach } from "./call-rules.ts";
import type { CodeHashes } from "./code-hashes.ts";
import { type ServedEntryPoint, simulationsOf } from "./entry-points.ts";
import type { BundlerErrorCode } from "./errors.ts";
import {
  bannedOpcode,
  callTrace,
  callWithoutCode,
  extcodeWithoutCode,
  mayAccessForeignStorage,
  type OpcodeRuleCaches,
  opcodeRuleCaches,
  scanValidation,
  senderCreatorOf,
  simulationFrame,
  type TracedCall,
  visitedCode,
} from "./opcode-rules.ts";
import { queuedNonceState } from "./queued-nonce.ts";
import { rpcError } from "./rpc-error.ts";
import { type SimulationCall, simulationCall } from "./simulation-call.ts";
import { mergeStateOverrides, toRpcStateOverride } from "./state-override.ts";
import { assertStorageRules, deployingFactory, validationCallees } from "./storage-check.ts";
import { storageTrace } from "./storage-trace.ts";
import type { ValidationMode } from "./validation-mode.ts";
import { isStaked, type StakeInfo } from "./validation-rules.ts";

/** Both releases' simulations revert with the same errors (FailedOp, FailedOpWithRevert, ...). */
const SIMULATION_ERRORS = simulationsOf("0.8").abi;

/** The EntryPoint's FailedOp reasons (AAxx) and the ERC-7769 refusal each is. */
function codeOfReason(reason: string): BundlerErrorCode {
  const aa = reason.slice(0, 4);
  if (aa === "AA22" || aa === "AA32") return "BUNDLER_TIME_RANGE_INVALID";
  if (aa === "AA24" || aa === "AA34") return "BUNDLER_SIGNATURE_INVALID";
  if (aa === "AA31") return "BUNDLER_PAYMASTER_DEPOSIT_TOO_LOW";
  if (aa.startsWith("AA3")) return "BUNDLER_PAYMASTER_REJECTED";
  return "BUNDLER_USER_OPERATION_REJECTED";
}

/** The revert data of a failed eth_call, wherever viem's error chain holds it. */
function revertData(error: unknown): Hex | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const found = error.walk((e) => typeof (e as { data?: unknown }).data === "string") as { data?: Hex } | null;
  return found?.data;
}

function refusal(error: unknown) {
  const data = revertData(error);
  if (data && data.length > 2) return refusalOf(data);
  const message = error instanceof BaseError ? error.shortMessage : String(error);
  return rpcError("BUNDLER_USER_OPERATION_REJECTED", `The simulation failed: ${message}`, {}, error);
}

/** The refusal a simulation's revert data says. */
function refusalOf(data: Hex) {
  try {
    const decoded = decodeErrorResult({ abi: SIMULATION_ERRORS, data });
    if (decoded.errorName === "FailedOp" || decoded.errorName === "FailedOpWithRevert") {
      const reason = String(decoded.args?.[1]);
      return rpcError(codeOfReason(reason), reason, { reason });
    }
    return rpcError("BUNDLER_USER_OPERATION_REJECTED", `${decoded.errorName} in simulation`, { revertData: data });
  } catch {
    return rpcError("BUNDLER_USER_OPERATION_REJECTED", "The simulation reverted", { revertData: data });
  }
}

/**
 * simulateValidation under debug_traceCall (callTracer: small and quick): its result, and ERC-7562's opcode rules
 * checked on the frames it ran (opcode-rules.ts); when a frame may have accessed storage other than the sender's, its
 * storage accesses, traced again, under the storage rules (storage-check.ts). The result holds the code hashes of the
 * contracts it ran (COD-010, code-hashes.ts).
 */
async function tracedValidation(
  on: ServedChain,
  caches: OpcodeRuleCaches,
  entryPoint: ServedEntryPoint,
  op: PackedUserOperation,
  queued: boolean,
  senderOverride: StateOverride,
) {
  const { abi } = simulationsOf(entryPoint.version);
  const data = encodeFunctionData({ abi, functionName: "simulateValidation", args: [op] });
  const simulation = simulationCall(entryPoint, data, senderOverride, queuedState(op, queued));
  const call: TracedCall = {
    to: simulation.to,
    data: simulation.data,
    stateOverrides: toRpcStateOverride(simulation.stateOverride),
    ...(simulation.delegatedTo ? { delegatedTo: simulation.delegatedTo.toLowerCase() } : {}),
  };
  const top = simulationFrame(await callTrace(on, call), call);
  const returned = (top.output ?? "0x") as Hex;
  if (top.error)
    throw returned.length > 2
      ? refusalOf(returned)
      : rpcError("BUNDLER_USER_OPERATION_REJECTED", "The simulation failed");
  const scanned = await scanValidation(on, caches, call, top);
  const banned = await bannedOpcode(on, caches, scanned);
  if (banned)
    throw rpcError("BUNDLER_OPCODE_BANNED", `Validation used ${banned.opcode} in ${banned.address} (ERC-7562)`, {
      ...banned,
    });
  const breach = callBreach(top, {
    entryPoint: entryPoint.address,
    senderCreator: senderCreatorOf(entryPoint.address),
    sender: op.sender,
    factory: deployingFactory(op),
  });
  if (breach)
    throw rpcError(
      "BUNDLER_OPCODE_BANNED",
      `[${breach.rule}] Validation called ${breach.to} from ${breach.from}: ${breach.reason} (ERC-7562)`,
      { ...breach },
    );
  const codeless = callWithoutCode(scanned, op.sender);
  if (codeless)
    throw rpcError(
      "BUNDLER_OPCODE_BANNED",
      `[OP-041] Validation called ${codeless.to} from ${codeless.from}: an address without code (ERC-7562)`,
      { rule: "OP-041", ...codeless },
    );
  const result = decodeFunctionResult({ abi, functionName: "simulateValidation", data: returned }) as ValidationResult;
  const storage = mayAccessForeignStorage(scanned, op.sender)
    ? await storageTrace(on, call, validationCallees(entryPoint.address, op))
    : undefined;
  const extcode = await extcodeWithoutCode(on, caches, scanned, op.sender, storage?.extcode);
  if (extcode)
    throw rpcError(
      "BUNDLER_OPCODE_BANNED",
      `[OP-041] Validation used ${extcode.opcode} of ${extcode.to} in ${extcode.from}: an address without code (ERC-7562)`,
      { rule: "OP-041", ...extcode },
    );
  const visited = { visitedCode: visitedCode(scanned) };
  if (!storage) return { ...result, ...visited };
  return { ...result, ...visited, storageAddresses: assertStorageRules(storage, entryPoint.address, op, result) };
}

/** simulateValidation by a plain eth_call (unsafe mode): no trace, no ERC-7562 rule. */
function untracedValidation(
  on: ServedChain,
  entryPoint: ServedEntryPoint,
  op: PackedUserOperation,
  queued: boolean,
  senderOverride: StateOverride,
): Promise<ValidationResult> {
  return simulate(on, entryPoint, "simulateValidation", [op], senderOverride, queuedState(op, queued));
}

/** A queued operation's sender nonce in the EntryPoint's storage, as if its predecessor had run. */
const queuedState = (op: PackedUserOperation, queued: boolean) =>
  queued ? [queuedNonceState(op.sender, op.nonce)] : [];

async function simulate(
  on: ServedChain,
  entryPoint: ServedEntryPoint,
  functionName: "simulateValidation" | "simulateHandleOp",
  args: readonly unknown[],
  extraOverride: StateOverride = [],
  entryPointState: { slot: Hex; value: Hex }[] = [],
) {
  const { abi } = simulationsOf(entryPoint.version);
  const call = simulationCall(
    entryPoint,
    encodeFunctionData({ abi, functionName, args }),
    extraOverride,
    entryPointState,
  );
  const outcome = await callOutcome(on, call);
  if (!outcome.success)
    throw outcome.data.length > 2
      ? refusalOf(outcome.data)
      : rpcError("BUNDLER_USER_OPERATION_REJECTED", "The simulation reverted without a reason");
  return decodeFunctionResult({ abi, functionName, data: outcome.data }) as never;
}

/** The call's result or revert data; a failure without revert data (the node's) is the refusal it says. A raw
 * eth_call: every acceptance sends one, and viem's `call` action formats and checks it again. */
async function callOutcome(on: ServedChain, call: SimulationCall): Promise<{ success: boolean; data: Hex }> {
  try {
    const data = await on.request<Hex | null>({
      method: "eth_call",
      params: [{ to: call.to, data: call.data }, "latest", toRpcStateOverride(call.stateOverride)],
    });
    return { success: true, data: data ?? "0x" };
  } catch (error) {
    const data = revertData(error);
    if (data && data.length > 2) return { success: false, data };
    throw refusal(error);
  }
}

export interface ValidationData {
  aggregator: bigint;
  validAfter: bigint;
  validUntil: bigint;
}

/** ERC-4337's validation data: aggregator (or 0 valid, 1 signature failed), validUntil (0: forever), validAfter. */
export function parseValidationData(value: bigint): ValidationData {
  const mask48 = (1n << 48n) - 1n;
  return {
    aggregator: value & ((1n << 160n) - 1n),
    validUntil: (value >> 160n) & mask48,
    validAfter: (value >> 208n) & mask48,
  };
}

export interface ValidationResult {
  returnInfo: {
    preOpGas: bigint;
    prefund: bigint;
    accountValidationData: bigint;
    paymasterValidationData: bigint;
    paymasterContext: Hex;
  };
  factoryInfo: StakeInfo;
  paymasterInfo: StakeInfo;
  /** The contracts whose storage a traced validation accessed, the sender's and the EntryPoint's aside (STO-041);
   * absent when no frame could reach other storage (or in unsafe mode). */
  storageAddresses?: string[];
  /** Safe mode: the code hashes of the contracts the validation ran (COD-010). */
  visitedCode?: CodeHashes;
}

/** An operation too close to its end is refused: it could expire before its bundle is mined. */
const EXPIRY_MARGIN_SECONDS = 30n;

/** What validation keeps between operations, per platform (bundler-state.ts). */
export interface ValidationCaches {
  opcodeRules: OpcodeRuleCaches;
  /** The latest block's number and timestamp per chain (validation time ranges are checked against the timestamp,
   * an accepted operation records the number): read at most once a second (a second's staleness is well inside the
   * expiry margin, and at most a block). */
  chainHeads: Map<number, { at: number; head: Promise<ChainHead> }>;
}

export interface ChainHead {
  number: bigint;
  timestamp: bigint;
}

export function validationCaches(): ValidationCaches {
  return { opcodeRules: opcodeRuleCaches(), chainHeads: new Map() };
}

/** The chain's latest block as validation saw it (cached a second). */
export function chainHead(on: ServedChain, { chainHeads }: ValidationCaches): Promise<ChainHead> {
  const cached = chainHeads.get(on.chainId);
  if (cached && Date.now() - cached.at < 1000) return cached.head;
  const head = on.client.getBlock().then((block) => ({ number: block.number, timestamp: block.timestamp }));
  head.catch(() => chainHeads.delete(on.chainId));
  chainHeads.set(on.chainId, { at: Date.now(), head });
  return head;
}

/**
 * Runs the EntryPoint's validation of `op` on acceptance and checks what it reports: ERC-7562's opcode and stake
 * rules, the account's and paymaster's signature results, aggregators and time ranges (against the chain's time).
 * A `queued` operation (its predecessor still in the mempool) is validated as if that one had run; `senderOverride`
 * (an EIP-7702 sender's delegation, eip7702.ts) gives the sender its code. `unsafe` mode skips the trace and the
 * ERC-7562 rules (validation-mode.ts). Throws the ERC-7769 refusal.
 */
export async function simulateValidation(
  on: ServedChain,
  caches: ValidationCaches,
  entryPoint: ServedEntryPoint,
  op: PackedUserOperation,
  queued = false,
  senderOverride: StateOverride = [],
  mode: ValidationMode = "safe",
): Promise<ValidationResult> {
  const [result, timestamp] = (await Promise.all([
    mode === "safe"
      ? tracedValidation(on, caches.opcodeRules, entryPoint, op, queued, senderOverride)
      : untracedValidation(on, entryPoint, op, queued, senderOverride),
    chainHead(on, caches).then((head) => head.timestamp),
  ])) as [ValidationResult, bigint];
  // [EREP-050]: only a staked paymaster may have the EntryPoint call its postOp with a context.
  if (mode === "safe" && result.returnInfo.paymasterContext !== "0x" && !isStaked(result.paymasterInfo))
    throw rpcError("BUNDLER_STAKE_TOO_LOW", "An unstaked paymaster returned a context for postOp (ERC-7562)", {
      paymasterContext: result.returnInfo.paymasterContext,
      stake: result.paymasterInfo.stake.toString(),
      unstakeDelaySec: result.paymasterInfo.unstakeDelaySec.toString(),
    });
  const checks: [string, bigint][] = [
    ["account", result.returnInfo.accountValidationData],
    ["paymaster", result.returnInfo.paymasterValidationData],
  ];
  for (const [who, raw] of checks) {
    const { aggregator, validAfter, validUntil } = parseValidationData(raw);
    if (aggregator === 1n) throw rpcError("BUNDLER_SIGNATURE_INVALID", `The ${who} reported an invalid signature`);
    if (aggregator !== 0n)
      throw rpcError("BUNDLER_AGGREGATOR_UNSUPPORTED", `The ${who} names an aggregator`, {
        aggregator: `0x${aggregator.toString(16).padStart(40, "0")}`,
      });
    if (validAfter > timestamp || (validUntil !== 0n && validUntil < timestamp + EXPIRY_MARGIN_SECONDS))
      throw rpcError("BUNDLER_TIME_RANGE_INVALID", `The ${who} made the operation valid only in another time range`, {
        validAfter: Number(validAfter),
        validUntil: Number(validUntil),
      });
  }
  return result;
}

export interface ExecutionResult {
  preOpGas: bigint;
  paid: bigint;
  accountValidationData: bigint;
  paymasterValidationData: bigint;
  targetSuccess: boolean;
  targetResult: Hex;
}

/**
 * Runs validation and execution of `op` (its signature is not checked); `balance` is given to the sender; a
 * `queued` operation runs as if its predecessor had; `stateOverride` (the caller's) is applied under the bundler's own.
 */
export async function simulateHandleOp(
  on: ServedChain,
  entryPoint: ServedEntryPoint,
  op: PackedUserOperation,
  senderBalance: bigint,
  queued = false,
  stateOverride: StateOverride = [],
): Promise<ExecutionResult> {
  const zero = "0x0000000000000000000000000000000000000000";
  return (await simulate(
    on,
    entryPoint,
    "simulateHandleOp",
    [op, zero, "0x"],
    mergeStateOverrides(stateOverride, [{ address: op.sender, balance: senderBalance }]),
    queued ? [queuedNonceState(op.sender, op.nonce)] : [],
  )) as ExecutionResult;
}

/** The bundle's check before it is sent: handleOps run by eth_call from the bundler, with the bundle's own gas (and
 * its EIP-7702 authorisations applied by `stateOverride`). */
export async function checkBundle(
  on: ServedChain,
  entryPoint: ServedEntryPoint,
  ops: PackedUserOperation[],
  beneficiary: Address,
  gas: bigint,
  stateOverride: StateOverride = [],
): Promise<{ ok: true } | { ok: false; opIndex: number; reason: string }> {
  try {
    await on.client.call({
      account: beneficiary,
      to: entryPoint.address,
      gas,
      ...(stateOverride.length > 0 ? { stateOverride } : {}),
      // handleOps and its errors are the same in v0.7 and v0.8.
      data: encodeFunctionData({ abi: entryPoint08Abi, functionName: "handleOps", args: [ops, beneficiary] }),
      blockTag: "pending", // after the bundles sent before it
    });
    return { ok: true };
  } catch (error) {
    const data = revertData(error);
    const decoded = data && data.length > 2 ? tryDecode(data) : undefined;
    if (decoded?.errorName === "FailedOp" || decoded?.errorName === "FailedOpWithRevert") {
      const [opIndex, reason] = decoded.args as readonly [bigint, string];
      return { ok: false, opIndex: Number(opIndex), reason };
    }
    throw error; // not an operation's fault: the run fails and is retried
  }
}

function tryDecode(data: Hex) {
  try {
    return decodeErrorResult({ abi: entryPoint08Abi, data });
  } catch {
    return undefined;
  }
}
