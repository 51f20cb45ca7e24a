// Chain load for the read benchmarks: rounds of batchMint to fresh holders (plus fixed recipients in every batch),
// as raw signed transactions sent in nonce order, mined a few per block.
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  type LocalAccount,
  slice,
  toHex,
} from "viem";
import { anvil } from "viem/chains";
import { TokenAbi } from "../abis/Token.ts";
import { rpcCall } from "../scripts/infra/anvil.ts";

const TX_PER_BLOCK = 10;

/** A distinct, fresh holder per index (salted, so that two generators on one chain do not share holders). */
const holder = (salt: string, i: number): Address => slice(keccak256(toHex(`${salt}-${i}`)), 12);

export interface BatchMints {
  rpcUrl: string;
  /** Holds the token's supply role. */
  signer: LocalAccount;
  token: Address;
  batches: number;
  freshPerBatch: number;
  /** Minted to in every batch, after the fresh holders. */
  alsoEvery: Address[];
}

export interface Generated {
  /** MintCompleted events (one per recipient). */
  events: number;
  transactions: number;
  blocks: number;
  seconds: number;
}

/**
 * Each send is answered before the next (anvil stalls on out-of-order nonces); no receipt is awaited: the token's
 * supply afterwards proves that every transaction succeeded. Automine is off meanwhile (anvil recomputes the state
 * root per block, which grows with the holders) and back on at the end.
 */
export async function sendBatchMints(options: BatchMints): Promise<Generated> {
  const { rpcUrl, signer, token, batches, freshPerBatch, alsoEvery } = options;
  const client = createPublicClient({ chain: anvil, transport: http(rpcUrl) });
  const read = () => client.readContract({ address: token, abi: TokenAbi, functionName: "totalSupply" });
  const supplyBefore = await read();
  const salt = token.toLowerCase();
  const calls: Hex[] = [];
  let minted = 0n;
  for (let b = 0; b < batches; b++) {
    const to = [...Array.from({ length: freshPerBatch }, (_, i) => holder(salt, b * freshPerBatch + i)), ...alsoEvery];
    const amounts = to.map((_, i) => 100n + BigInt(i));
    minted += amounts.reduce((a, v) => a + v, 0n);
    calls.push(encodeFunctionData({ abi: TokenAbi, functionName: "batchMint", args: [to, amounts] }));
  }
  await rpcCall(rpcUrl, "anvil_setBalance", [signer.address, toHex(10n ** 24n)]);
  const [nonce, fees, gas] = await Promise.all([
    client.getTransactionCount({ address: signer.address, blockTag: "pending" }),
    client.estimateFeesPerGas(),
    client.estimateGas({ account: signer, to: token, data: calls[0] }),
  ]);
  await rpcCall(rpcUrl, "evm_setAutomine", [false]);
  const started = performance.now();
  try {
    // Blocks a third full, so the base fee falls instead of climbing.
    await rpcCall(rpcUrl, "evm_setBlockGasLimit", [toHex(3n * BigInt(TX_PER_BLOCK) * gas)]);
    for (const [i, data] of calls.entries()) {
      const raw = await signer.signTransaction({
        chainId: anvil.id,
        type: "eip1559",
        to: token,
        data,
        gas: (gas * 13n) / 10n,
        nonce: nonce + i,
        maxFeePerGas: fees.maxFeePerGas * 2n,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      await client.sendRawTransaction({ serializedTransaction: raw });
      if ((i + 1) % TX_PER_BLOCK === 0 || i === calls.length - 1) await rpcCall(rpcUrl, "anvil_mine", ["0x1"]);
    }
  } finally {
    await rpcCall(rpcUrl, "evm_setAutomine", [true]);
  }
  const seconds = (performance.now() - started) / 1000;
  const supply = await read();
  if (supply !== supplyBefore + minted) {
    throw new Error(`Some batchMint transactions failed: supply ${supply}, expected ${supplyBefore + minted}`);
  }
  return {
    events: batches * (freshPerBatch + alsoEvery.length),
    transactions: calls.length,
    blocks: Math.ceil(calls.length / TX_PER_BLOCK),
    seconds,
  };
}
