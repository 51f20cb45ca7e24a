// Why a mined write reverted, for its request's errorMessage and contractError: out of gas when it used its whole
// limit; else the revert data of the node's trace of it (debug_traceTransaction's call tracer, where the node serves
// it), decoded as an estimate's revert is. Nothing when neither is known: the request is FAILED / REVERTED as before.
import type { Hex, TransactionReceipt } from "viem";
import type { ChainService } from "../chain/chain-service.ts";
import { decodeRevertData } from "../mutations/contract-errors.ts";
import type { MinedFailure } from "./complete-request.ts";

interface TopCall {
  output?: Hex;
  error?: string;
}

export async function revertCause(chain: ChainService, receipt: TransactionReceipt): Promise<MinedFailure | undefined> {
  if (receipt.status !== "reverted") return undefined;
  try {
    const { gas } = await chain.client.getTransaction({ hash: receipt.transactionHash });
    if (receipt.gasUsed >= gas)
      return {
        subStatus: "OUT_OF_GAS",
        errorMessage: `The transaction ran out of gas on chain: it used all of its ${gas} gas.`,
      };
    const top = (await chain.client.request({
      method: "debug_traceTransaction",
      params: [receipt.transactionHash, { tracer: "callTracer", tracerConfig: { onlyTopCall: true } }],
    } as never)) as TopCall;
    const contractError = top.output && top.output.length >= 10 ? decodeRevertData(top.output) : undefined;
    if (!contractError) return undefined;
    return {
      subStatus: "REVERTED",
      errorMessage: `The transaction reverted on chain: ${contractError.message}`,
      contractError,
    };
  } catch {
    return undefined; // a node without the debug namespace, or unreachable: the plain revert
  }
}
