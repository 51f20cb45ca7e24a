// Replaces stuck writes: the same call, gas and nonce, signed again with fees at least 12.5% higher (nodes want
// 10% more to accept a replacement) and no lower than the write's speed's current fees (X-Transaction-Speed). The new bytes are stored
// before they are sent, and the old hash is kept: whichever version is mined completes the request, and the
// shared nonce means only one can be.
import { type Address, type Hex, keccak256, parseTransaction } from "viem";
import { transactionTypeOf } from "../chain/authorizations.ts";
import { speedFees } from "../chain/fee-history.ts";
import type { TransactionRequestRow } from "../db/platform-types.ts";
import { type ChainTaskDeps, isAlreadyKnown } from "./deps.ts";

const bumped = (fee: bigint) => (fee * 1125n) / 1000n + 1n;
const max = (a: bigint, b: bigint) => (a > b ? a : b);

export async function bumpFees(deps: ChainTaskDeps, rows: TransactionRequestRow[]): Promise<void> {
  const { db, chain, custody, logger } = deps;
  if (rows.length === 0) return;
  const current = await speedFees(chain.client);
  for (const row of [...rows].sort((a, b) => (a.nonce ?? 0) - (b.nonce ?? 0))) {
    const previous = parseTransaction(row.rawTransaction as Hex);
    const network = current[row.speed];
    const maxPriorityFeePerGas = max(bumped(previous.maxPriorityFeePerGas ?? 0n), network.maxPriorityFeePerGas);
    const maxFeePerGas = max(max(bumped(previous.maxFeePerGas ?? 0n), network.maxFeePerGas), maxPriorityFeePerGas);
    const account = await custody.signer(row.organizationId, row.fromAddress as Address, {
      requestId: row.id,
      caller: "worker:fee-bump",
    });
    const raw = await account.signTransaction({
      chainId: chain.chainId,
      ...transactionTypeOf(row.authorizationList), // the same authorisations as the bytes it replaces
      to: previous.to,
      data: previous.data,
      value: previous.value,
      gas: previous.gas,
      nonce: row.nonce as number,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
    const stored = await db
      .updateTable("transactionRequests")
      .set((eb) => ({
        rawTransaction: raw,
        transactionHash: keccak256(raw),
        replacedHashes: eb.fn("array_append", [eb.ref("replacedHashes"), eb.val(row.transactionHash)]),
        feeBumps: row.feeBumps + 1,
        subStatus: "FEE_BUMPED",
        updatedAt: new Date(),
      }))
      .where("id", "=", row.id)
      .where("transactionHash", "=", row.transactionHash) // nobody else replaced or completed it meanwhile
      .where("status", "=", "CONFIRMING")
      .executeTakeFirst();
    if (stored.numUpdatedRows === 0n) continue;
    try {
      await chain.client.sendRawTransaction({ serializedTransaction: raw });
    } catch (error) {
      // Mined meanwhile ("nonce too low") or refused: the stored bytes go out again on reconciliation's rebroadcast.
      if (!isAlreadyKnown(error))
        logger.warn("fee bump broadcast refused", { transactionId: row.id, error: String(error) });
    }
    logger.warn("stuck transaction replaced with higher fees", {
      transactionId: row.id,
      previousHash: row.transactionHash,
      hash: keccak256(raw),
      maxFeePerGas: String(maxFeePerGas),
    });
  }
}
