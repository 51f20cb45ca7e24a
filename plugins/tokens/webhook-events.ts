// The tokens plugin's webhook events, read from the index (host/events/index-lifecycle.ts): a mint is told as
// `asset.issuance.provisional` through its whole lifecycle (pending when the platform broadcasts it, provisional
// inside the reorg depth, final past it); every movement of units (mint, burn, transfer, forced transfer) as one
// `token.transfer.final` once deeper than it.
import { decodeFunctionData, getAddress, type Hex, zeroAddress } from "viem";
import { z } from "zod";
import { TokenAbi } from "../../abis/Token.ts";
import {
  EventAddress,
  EventChainId,
  EventHash,
  EventIntegerString,
  EventPosition,
} from "../../domain/evm/event-payloads.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { activityInBlocks, type BlockRange } from "../../host/events/indexed-activity.ts";
import type { BroadcastWrite, WebhookEventType } from "../../host/plugin.ts";

export const TokenTransferFinalV1 = z
  .object({
    tokenAddress: EventAddress,
    chainId: EventChainId,
    from: EventAddress.describe("The zero address for a mint"),
    to: EventAddress.describe("The zero address for a burn"),
    amount: EventIntegerString.describe("Raw units"),
    transactionHash: EventHash,
    blockNumber: EventPosition,
    logIndex: EventPosition.describe("The index of the indexed event's log in its block"),
  })
  .strict()
  .meta({ title: "TokenTransferFinalV1" });

export const AssetIssuanceProvisionalV1 = z
  .object({
    assetAddress: EventAddress,
    chainId: EventChainId,
    issuer: EventAddress.optional().describe("The account that minted; thin payload variants omit it"),
    quantity: EventIntegerString.describe("Raw units"),
    transactionHash: EventHash,
  })
  .strict()
  .meta({ title: "AssetIssuanceProvisionalV1" });

const MOVEMENTS = ["MintCompleted", "BurnCompleted", "TransferCompleted", "ForcedTransfer"] as const;

/** The token events of `names` in the range (those of a token: every movement of units is one). */
async function tokenEvents(ledger: LedgerDb, names: readonly string[], range: BlockRange) {
  const rows = await activityInBlocks(ledger, names, range);
  return rows.flatMap((row) => (row.token ? [{ ...row, token: getAddress(row.token) }] : []));
}

/** The issuances a mint the platform broadcasts will produce (its token's `batchMint` or `mint` call), one a recipient. */
export function predictIssuances(write: BroadcastWrite) {
  let call: ReturnType<typeof decodeFunctionData<typeof TokenAbi>>;
  try {
    call = decodeFunctionData({ abi: TokenAbi, data: write.data as Hex });
  } catch {
    return []; // not a direct call of the token (e.g. through a smart wallet): nothing predicted
  }
  const amounts = call.functionName === "batchMint" ? call.args[1] : call.functionName === "mint" ? [call.args[1]] : [];
  const token = getAddress(write.toAddress);
  return amounts.map((amount) => ({
    payload: {
      assetAddress: token,
      chainId: write.chainId,
      issuer: getAddress(write.fromAddress),
      quantity: amount.toString(),
      transactionHash: write.transactionHash,
    },
    related: { idxr_asset: token, idxr_token: token },
  }));
}

export const TOKEN_WEBHOOK_EVENTS: Record<string, WebhookEventType> = {
  "asset.issuance.provisional": {
    description:
      "Units of an asset were issued (minted): pending when the platform broadcasts the mint, provisional while inside the reorg depth, final past it.",
    payload: AssetIssuanceProvisionalV1,
    lifecycle: "provisional",
    fromIndex: {
      pending: { kinds: ["token.mint"], predict: predictIssuances },
      async read(ledger, range) {
        return (await tokenEvents(ledger, ["MintCompleted"], range)).map((e) =>
          e.observation(
            {
              assetAddress: e.token,
              chainId: range.chainId,
              issuer: getAddress(e.sender),
              quantity: e.arg("amount"),
              transactionHash: e.transactionHash,
            },
            { idxr_asset: e.token, idxr_token: e.token, idxr_issuance: e.id },
          ),
        );
      },
    },
  },
  "token.transfer.final": {
    description:
      "Units of a token moved (a transfer, forced transfer, mint from the zero address or burn to it) and the block is deeper than the reorg depth. Endpoints with receiptRequired counter-sign a receipt (POST /api/v2/webhooks/receipts).",
    payload: TokenTransferFinalV1,
    lifecycle: "final",
    receiptRequired: true,
    fromIndex: {
      async read(ledger, range) {
        return (await tokenEvents(ledger, MOVEMENTS, range)).map((e) =>
          e.observation(
            {
              tokenAddress: e.token,
              chainId: range.chainId,
              from: e.eventName === "MintCompleted" ? zeroAddress : getAddress(e.arg("from")),
              to: e.eventName === "BurnCompleted" ? zeroAddress : getAddress(e.arg("to")),
              amount: e.arg("amount"),
              transactionHash: e.transactionHash,
              blockNumber: Number(e.blockNumber),
              logIndex: e.logIndex,
            },
            { idxr_token: e.token, idxr_transfer: e.id },
          ),
        );
      },
    },
  },
};
