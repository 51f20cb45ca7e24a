// One deployment transaction sent through a flaky node exactly once. It is signed once, so its nonce is fixed: when
// a send's answer is lost (the node may or may not have it), the same bytes go again (the node at most answers that
// it knows them), never a new signature that could land as a second transaction. Its receipt is awaited by its hash.
import {
  type Address,
  type Hex,
  keccak256,
  type LocalAccount,
  type PublicClient,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from "viem";
import { isTransient, type RetryOptions, retrying } from "../infra/retry.ts";

/** A transaction signed and about to be sent: what a journal records to find or send it again after a stop. */
export interface SignedTransaction {
  raw: Hex;
  hash: Hex;
  nonce: number;
}

/** The signer's nonce went past this transaction's without it being mined: sign the step anew. */
export class NonceTaken extends Error {}

/** The node's answers that mean it already has these bytes (or mined them): the send is done. */
const ALREADY_SENT = /already known|already imported|known transaction|nonce too low|replacement transaction/i;

/** Sends signed bytes until the node has them. */
export async function broadcast(client: PublicClient, tx: SignedTransaction, retry?: RetryOptions): Promise<void> {
  await retrying(
    `eth_sendRawTransaction ${tx.hash}`,
    async () => {
      try {
        await client.request({ method: "eth_sendRawTransaction", params: [tx.raw] }, { retryCount: 0 });
      } catch (error) {
        if (!isTransient(error) && ALREADY_SENT.test(String((error as Error).message))) return;
        throw error;
      }
    },
    retry,
  );
}

/**
 * Waits for the receipt of a sent transaction, sending its bytes again now and then (a node that answered the send
 * with an error may not have kept it). Throws NonceTaken when another transaction took its nonce.
 */
export async function receiptOf(
  client: PublicClient,
  tx: SignedTransaction,
  from: Address,
  options: { timeoutMs?: number; maxPollMs?: number; resendMs?: number; retry?: RetryOptions } = {},
): Promise<TransactionReceipt> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  // Soon at first (an instant-mining chain has it within milliseconds), then less often (a chain with a block time).
  let pollMs = 10;
  let resendAt = Date.now() + (options.resendMs ?? 5_000);
  for (;;) {
    try {
      return await client.getTransactionReceipt({ hash: tx.hash });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError) && !isTransient(error)) throw error;
    }
    if (Date.now() > deadline) throw new Error(`No receipt for ${tx.hash} after ${options.timeoutMs ?? 120_000} ms`);
    if (Date.now() > resendAt) {
      const mined = await retrying("eth_getTransactionCount", () => client.getTransactionCount({ address: from }));
      // Its nonce is used and its receipt still missing: another transaction has it (checked again, as the receipt
      // may have come in between).
      if (mined > tx.nonce) {
        const receipt = await client.getTransactionReceipt({ hash: tx.hash }).catch(() => undefined);
        if (receipt) return receipt;
        throw new NonceTaken(`the nonce ${tx.nonce} of ${tx.hash} was taken by another transaction`);
      }
      await broadcast(client, tx, options.retry);
      resendAt = Date.now() + (options.resendMs ?? 5_000);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    pollMs = Math.min(pollMs * 2, options.maxPollMs ?? 1_000);
  }
}

/**
 * Signs a transaction at the signer's next nonce, or at `nonce` while the chain has not used it (a step signed
 * before a stop: whichever of the two lands, only one can). Gas and fees as the node suggests.
 */
export async function signNext(
  client: PublicClient,
  account: LocalAccount,
  chainId: number,
  call: { to: Address; data: Hex },
  options: { nonce?: number; retry?: RetryOptions } = {},
): Promise<SignedTransaction> {
  const { retry } = options;
  const count = (blockTag: "latest" | "pending") =>
    retrying(
      "eth_getTransactionCount",
      () => client.getTransactionCount({ address: account.address, blockTag }),
      retry,
    );
  const nonce =
    options.nonce !== undefined && (await count("latest")) <= options.nonce ? options.nonce : await count("pending");
  const gas = await retrying("eth_estimateGas", () => client.estimateGas({ account, ...call }), retry);
  const fees = await retrying("fee estimate", () => client.estimateFeesPerGas(), retry);
  const raw = await account.signTransaction({ type: "eip1559", chainId, nonce, gas, ...fees, ...call });
  return { raw, hash: keccak256(raw), nonce };
}
