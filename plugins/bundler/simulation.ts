// Validation by simulation: EntryPoint v0.8 keeps simulateValidation and simulateHandleOp in EntryPointSimulations,
// which is never deployed: an eth_call to the EntryPoint's address with a state override that puts its runtime code
// there runs them against the real EntryPoint's storage (deposits, nonces). A refusal becomes the ERC-7769 code.
import {
  type Address,
  BaseError,
  createPublicClient,
  decodeErrorResult,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  type StateOverride,
} from "viem";
import { entryPoint08Abi, type PackedUserOperation } from "viem/account-abstraction";
import { accountAbstractionArtifact } from "../../host/chain/entry-point.ts";
import type { PluginContext } from "../../host/plugin.ts";
import type { BundlerErrorCode } from "./errors.ts";
import { rpcError } from "./rpc-error.ts";
import { findBannedOpcode, isStaked, type StakeInfo, type StructLog } from "./validation-rules.ts";

const SIMULATIONS = accountAbstractionArtifact("EntryPointSimulations");

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
  return rpcError("BUNDLER_USER_OPERATION_REJECTED", `The simulation failed: ${message}`);
}

/** The refusal a simulation's revert data says. */
function refusalOf(data: Hex) {
  try {
    const decoded = decodeErrorResult({ abi: SIMULATIONS.abi, data });
    if (decoded.errorName === "FailedOp" || decoded.errorName === "FailedOpWithRevert") {
      const reason = String(decoded.args?.[1]);
      return rpcError(codeOfReason(reason), reason, { reason });
    }
    return rpcError("BUNDLER_USER_OPERATION_REJECTED", `${decoded.errorName} in simulation`, { revertData: data });
  } catch {
    return rpcError("BUNDLER_USER_OPERATION_REJECTED", "The simulation reverted", { revertData: data });
  }
}

interface Trace {
  failed: boolean;
  returnValue: string;
  structLogs: StructLog[];
}

const senderCreators = new Map<string, Promise<string>>();
/** The EntryPoint's SenderCreator (it calls factories): trusted like the EntryPoint. */
function senderCreatorOf(ctx: PluginContext, entryPoint: Address): Promise<string> {
  let found = senderCreators.get(entryPoint);
  if (!found) {
    found = ctx.chain.client
      .readContract({ address: entryPoint, abi: entryPoint08Abi, functionName: "senderCreator" })
      .then((address) => address.toLowerCase());
    senderCreators.set(entryPoint, found);
  }
  return found;
}

/** A client for the rare full trace (stacks make it large: a factory's deployment can pass 10 MB). */
const fullTraceClients = new Map<string, PublicClient>();
function fullTraceClient(ctx: PluginContext): PublicClient {
  const url = ctx.chain.chain.rpcUrls.default.http[0]!;
  let client = fullTraceClients.get(url);
  if (!client) {
    client = createPublicClient({ transport: http(url, { maxResponseBodySize: false, timeout: 30_000 }) });
    fullTraceClients.set(url, client);
  }
  return client;
}

function traceCall(client: PublicClient, entryPoint: Address, data: Hex, withStack: boolean): Promise<Trace> {
  return client.request({
    method: "debug_traceCall" as never,
    params: [
      { to: entryPoint, data },
      "latest",
      {
        stateOverrides: { [entryPoint]: { code: SIMULATIONS.deployedBytecode } },
        disableStack: !withStack,
        disableStorage: true,
        enableMemory: false,
        enableReturnData: false,
      },
    ] as never,
  }) as Promise<Trace>;
}

/**
 * simulateValidation under debug_traceCall: its result, and the ERC-7562 opcode rules checked on the trace. The
 * first trace has no stacks (small): it shows whether anything below the EntryPoint used a banned opcode; only then
 * a second one with stacks tells whose frame it was (the EntryPoint's own and its SenderCreator's are trusted).
 */
async function tracedValidation(ctx: PluginContext, entryPoint: Address, op: PackedUserOperation) {
  const data = encodeFunctionData({ abi: SIMULATIONS.abi, functionName: "simulateValidation", args: [op] });
  const trace = await traceCall(ctx.chain.client as PublicClient, entryPoint, data, false);
  const returned = (trace.returnValue.startsWith("0x") ? trace.returnValue : `0x${trace.returnValue}`) as Hex;
  if (trace.failed)
    throw returned.length > 2
      ? refusalOf(returned)
      : rpcError("BUNDLER_USER_OPERATION_REJECTED", "The simulation failed");
  const trusted = new Set([entryPoint.toLowerCase()]);
  if (findBannedOpcode(trace.structLogs, entryPoint, trusted)) {
    const [full, senderCreator] = await Promise.all([
      traceCall(fullTraceClient(ctx), entryPoint, data, true),
      senderCreatorOf(ctx, entryPoint),
    ]);
    const banned = findBannedOpcode(full.structLogs, entryPoint, trusted.add(senderCreator));
    if (banned)
      throw rpcError("BUNDLER_OPCODE_BANNED", `Validation used ${banned.opcode} in ${banned.address} (ERC-7562)`, {
        ...banned,
      });
  }
  return decodeFunctionResult({ abi: SIMULATIONS.abi, functionName: "simulateValidation", data: returned }) as never;
}

async function simulate(
  ctx: PluginContext,
  entryPoint: Address,
  functionName: "simulateValidation" | "simulateHandleOp",
  args: readonly unknown[],
  extraOverride: StateOverride = [],
) {
  const data = encodeFunctionData({ abi: SIMULATIONS.abi, functionName, args });
  try {
    const result = await ctx.chain.client.call({
      to: entryPoint,
      data,
      stateOverride: [{ address: entryPoint, code: SIMULATIONS.deployedBytecode }, ...extraOverride],
    });
    return decodeFunctionResult({ abi: SIMULATIONS.abi, functionName, data: result.data ?? "0x" }) as never;
  } catch (error) {
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
  paymasterInfo: StakeInfo;
}

/** An operation too close to its end is refused: it could expire before its bundle is mined. */
const EXPIRY_MARGIN_SECONDS = 30n;

/** The latest block's timestamp, which validation time ranges are checked against. */
export const chainTime = async (ctx: PluginContext): Promise<bigint> => (await ctx.chain.client.getBlock()).timestamp;

/**
 * Runs the EntryPoint's validation of `op` and checks what it reports: the account's and paymaster's signature
 * results, aggregators and time ranges (against `now`, the chain's time, read alongside when not given: a bundle
 * reads it once for all its operations). On acceptance (`rules`) also ERC-7562's opcode and stake rules. Throws the
 * ERC-7769 refusal.
 */
export async function simulateValidation(
  ctx: PluginContext,
  entryPoint: Address,
  op: PackedUserOperation,
  now?: Promise<bigint>,
  rules = false,
): Promise<ValidationResult> {
  const [result, timestamp] = (await Promise.all([
    rules ? tracedValidation(ctx, entryPoint, op) : simulate(ctx, entryPoint, "simulateValidation", [op]),
    now ?? chainTime(ctx),
  ])) as [ValidationResult, bigint];
  // [EREP-050]: only a staked paymaster may have the EntryPoint call its postOp with a context.
  if (rules && result.returnInfo.paymasterContext !== "0x" && !isStaked(result.paymasterInfo))
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

/** Runs validation and execution of `op` (its signature is not checked); `balance` is given to the sender. */
export async function simulateHandleOp(
  ctx: PluginContext,
  entryPoint: Address,
  op: PackedUserOperation,
  senderBalance: bigint,
): Promise<ExecutionResult> {
  const zero = "0x0000000000000000000000000000000000000000";
  return (await simulate(
    ctx,
    entryPoint,
    "simulateHandleOp",
    [op, zero, "0x"],
    [{ address: op.sender, balance: senderBalance }],
  )) as ExecutionResult;
}
