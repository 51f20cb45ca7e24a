// Who relayed a transaction: an ERC-2771 forwarder executing a signed request, or an ERC-4337 EntryPoint running a
// user operation. Recognised by the call's selector; the signer comes from the completion event the relayer emits
// right after the operation's own logs (ExecutedForwardRequest, UserOperationEvent), in the transaction's receipt.
// A user operation's own logs are those after the EntryPoint's BeforeExecution (or the previous operation's
// UserOperationEvent) up to its UserOperationEvent, which is its own too; logs before BeforeExecution were emitted
// while the bundle was validated (account deployments, prefund deposits) and belong to no one operation.
import {
  type Address,
  decodeEventLog,
  type Hex,
  isAddressEqual,
  parseAbi,
  toEventSelector,
  toFunctionSelector,
  zeroAddress,
} from "viem";
import type { ReceiptLog } from "./receipts.ts";

export interface Relay {
  relayerKind: "forwarder" | "user-operation";
  relayer: Address;
  /** The forward request's signer, or the user operation's smart account. */
  metaTxSigner: Address;
  userOpHash: Hex | null;
  paymaster: Address | null;
  actualGasCost: bigint | null;
}

const REQUEST = "(address,address,uint256,uint256,uint48,bytes,bytes)";
const USER_OP_V7 = "(address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes)";
const USER_OP_V6 = "(address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes)";

const FORWARDER_CALLS = new Set([
  toFunctionSelector(`execute(${REQUEST})`),
  toFunctionSelector(`executeBatch(${REQUEST}[],address)`),
]);
const ENTRY_POINT_CALLS = new Set([
  toFunctionSelector(`handleOps(${USER_OP_V7}[],address)`),
  toFunctionSelector(`handleOps(${USER_OP_V6}[],address)`),
  toFunctionSelector(`handleAggregatedOps((${USER_OP_V7}[],address,bytes)[],address)`),
  toFunctionSelector(`handleAggregatedOps((${USER_OP_V6}[],address,bytes)[],address)`),
]);

const COMPLETIONS = parseAbi([
  "event ExecutedForwardRequest(address indexed signer, uint256 nonce, bool success)",
  "event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)",
]);
const COMPLETION_TOPICS = new Set(COMPLETIONS.map((item) => toEventSelector(item)));
const BEFORE_EXECUTION = toEventSelector("event BeforeExecution()");

export type RelayKind = Relay["relayerKind"];

/** Pure: which relayer a transaction's call data addresses, from its selector; null for a direct call. */
export function relayKindOf(input: Hex | undefined): RelayKind | null {
  const selector = input?.slice(0, 10) as Hex | undefined;
  if (!selector) return null;
  if (FORWARDER_CALLS.has(selector)) return "forwarder";
  if (ENTRY_POINT_CALLS.has(selector)) return "user-operation";
  return null;
}

/** Pure: the relay of the log at `logIndex`, from the first completion event the relayer emitted at or after it. */
export function relayFromLogs(
  kind: RelayKind,
  relayerContract: Address,
  relayer: Address,
  logIndex: number,
  logs: readonly ReceiptLog[],
): Relay | null {
  const relayerLogs = logs.filter((log) => isAddressEqual(log.address, relayerContract));
  const validating = relayerLogs.some((log) => log.topics[0] === BEFORE_EXECUTION && log.logIndex > logIndex);
  if (kind === "user-operation" && validating) return null;
  const completion = relayerLogs
    .filter((log) => log.logIndex >= logIndex && log.topics[0] !== undefined && COMPLETION_TOPICS.has(log.topics[0]))
    .sort((a, b) => a.logIndex - b.logIndex)[0];
  if (!completion) return null;
  const decoded = decodeEventLog({
    abi: COMPLETIONS,
    topics: completion.topics as [Hex, ...Hex[]],
    data: completion.data,
  });
  if (decoded.eventName === "ExecutedForwardRequest") {
    if (kind !== "forwarder") return null;
    return {
      relayerKind: kind,
      relayer,
      metaTxSigner: decoded.args.signer,
      userOpHash: null,
      paymaster: null,
      actualGasCost: null,
    };
  }
  if (kind !== "user-operation") return null;
  const { userOpHash, sender, paymaster, actualGasCost } = decoded.args;
  return {
    relayerKind: kind,
    relayer,
    metaTxSigner: sender,
    userOpHash,
    paymaster: isAddressEqual(paymaster, zeroAddress) ? null : paymaster,
    actualGasCost,
  };
}
