// The moving writes on a token: transfers from the signing wallet (a batch is one multicall), approvals, and the
// custodian's forced transfer (its receiver checked verified first).
import { getAddress } from "viem";
import type { App } from "../../host/http/env.ts";
import { ApprovalBodySchema } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { ForcedTransferBodySchema, TransferBodySchema } from "./operations-schemas.ts";
import { assertReceiverVerified } from "./receiver-verified.ts";
import { asOneCall, tokenCall } from "./token-calls.ts";
import { tokenOperation, tokenWriteRoute } from "./write-route.ts";
import { approvalSummary, forcedTransferSummary, transferSummary } from "./write-summaries.ts";

export const transferOperation = tokenOperation({
  method: "post",
  path: "transfer",
  summary: "Transfer from the signing wallet (POST /tokens/{tokenAddress}/transfer; batch, raw units)",
  description:
    "Body `{recipients[], amounts[]}`: the signer wallet's own tokens, subject to pause, freezes and compliance. " +
    "A batch is one transaction (the token's multicall).",
  permission: "token:transfer",
  body: TransferBodySchema,
  kind: "token.transfer",
  encode: (b) =>
    asOneCall(
      b.recipients.map((to, i) =>
        tokenCall({ functionName: "transfer", args: [getAddress(to), BigInt(b.amounts[i])] }),
      ),
    ),
  describe: (token, b) => transferSummary(token, b.recipients, b.amounts),
});

export const approvalOperation = tokenOperation({
  method: "post",
  path: "approvals",
  summary: "Approve a spender of the signing wallet's tokens (POST /tokens/{tokenAddress}/approvals)",
  description: "Body `{spender, amount}` (raw units; 0 revokes): ERC-20 approve from the signing wallet.",
  permission: "token:transfer",
  body: ApprovalBodySchema,
  kind: "token.approve",
  encode: (b) => tokenCall({ functionName: "approve", args: [getAddress(b.spender), BigInt(b.amount)] }),
  describe: (token, b) => approvalSummary(token, b.spender, b.amount),
});

export const forcedTransferOperation = tokenOperation({
  method: "post",
  path: "forced-transfer",
  summary: "Forced transfer by the custodian (POST /tokens/{tokenAddress}/forced-transfer)",
  description:
    "Body `{from, to, amount}`. Moves tokens regardless of pause, freezes and compliance, releasing a partial " +
    "freeze as needed. The receiver `to` must be verified in the system's identity registry (a registered " +
    "identity, as ERC-3643 requires): else 422 TOKEN_RECEIVER_NOT_VERIFIED naming it, before anything is sent. " +
    "Needs the token's CUSTODIAN_ROLE.",
  permission: "token:custody",
  body: ForcedTransferBodySchema,
  kind: "token.transfer.forced",
  precheck: (chain, b) => assertReceiverVerified(chain, getAddress(b.to)),
  encode: (b) =>
    tokenCall({ functionName: "forcedTransfer", args: [getAddress(b.from), getAddress(b.to), BigInt(b.amount)] }),
  describe: (token, b) => forcedTransferSummary(token, b.from, b.to, b.amount),
});

export function transferOperationRoutes(app: App, ctx: PluginContext) {
  tokenWriteRoute(app, ctx, transferOperation);
  tokenWriteRoute(app, ctx, approvalOperation);
  tokenWriteRoute(app, ctx, forcedTransferOperation);
}
