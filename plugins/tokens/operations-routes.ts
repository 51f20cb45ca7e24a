// Token servicing writes: mint, burn, transfer, approval, forced transfer, address and partial freezes, pause.
import { type Address, encodeFunctionData, getAddress, type Hex } from "viem";
import { TokenAbi } from "../../abis/Token.ts";
import type { App } from "../../host/http/env.ts";
import { ApprovalBodySchema } from "../../host/http/schemas.ts";
import { shortAddress } from "../../host/mutations/describe.ts";
import type { PluginContext } from "../../host/plugin.ts";
import {
  AccountAmountBodySchema,
  AccountBodySchema,
  BurnBodySchema,
  EmptyWriteBodySchema,
  ForcedTransferBodySchema,
  MintBodySchema,
  TransferBodySchema,
} from "./operations-schemas.ts";
import { assertReceiverVerified } from "./receiver-verified.ts";
import { tokenWriteRoute } from "./write-route.ts";
import {
  amountOf,
  approvalSummary,
  burnSummary,
  forcedTransferSummary,
  mintSummary,
  transferSummary,
} from "./write-summaries.ts";

type TokenCall = Parameters<typeof encodeFunctionData<typeof TokenAbi>>[0];
const call = (args: Omit<TokenCall, "abi">): Hex => encodeFunctionData({ abi: TokenAbi, ...args } as TokenCall);

/** Several calls of the caller's own as one transaction, through the token's multicall (msg.sender is kept). */
export function asOneCall(calls: Hex[]): Hex {
  return calls.length === 1
    ? calls[0]
    : encodeFunctionData({ abi: TokenAbi, functionName: "multicall", args: [calls] });
}

const addresses = (list: string[]): Address[] => list.map((a) => getAddress(a));
const amounts = (list: string[]) => list.map((a) => BigInt(a));

export function operationRoutes(app: App, ctx: PluginContext) {
  tokenWriteRoute(app, ctx, {
    method: "post",
    path: "mint",
    summary: "Mint to one or more recipients (raw units)",
    permission: "token:mint",
    body: MintBodySchema,
    kind: "token.mint",
    encode: (b) => call({ functionName: "batchMint", args: [addresses(b.recipients), amounts(b.amounts)] }),
    describe: (token, b) => mintSummary(token, b.recipients, b.amounts),
  });

  tokenWriteRoute(app, ctx, {
    method: "post",
    path: "burn",
    summary: "Burn from holders (POST /tokens/{tokenAddress}/burn; batch, raw units)",
    description: "Body `{holders[], amounts[]}`. Needs the token's SUPPLY_MANAGEMENT_ROLE on the signing wallet.",
    permission: "token:burn",
    body: BurnBodySchema,
    kind: "token.burn",
    encode: (b) => call({ functionName: "batchBurn", args: [addresses(b.holders), amounts(b.amounts)] }),
    describe: (token, b) => burnSummary(token, b.holders, b.amounts),
  });

  tokenWriteRoute(app, ctx, {
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
        b.recipients.map((to, i) => call({ functionName: "transfer", args: [getAddress(to), BigInt(b.amounts[i])] })),
      ),
    describe: (token, b) => transferSummary(token, b.recipients, b.amounts),
  });

  tokenWriteRoute(app, ctx, {
    method: "post",
    path: "approvals",
    summary: "Approve a spender of the signing wallet's tokens (POST /tokens/{tokenAddress}/approvals)",
    description: "Body `{spender, amount}` (raw units; 0 revokes): ERC-20 approve from the signing wallet.",
    permission: "token:transfer",
    body: ApprovalBodySchema,
    kind: "token.approve",
    encode: (b) => call({ functionName: "approve", args: [getAddress(b.spender), BigInt(b.amount)] }),
    describe: (token, b) => approvalSummary(token, b.spender, b.amount),
  });

  tokenWriteRoute(app, ctx, {
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
      call({ functionName: "forcedTransfer", args: [getAddress(b.from), getAddress(b.to), BigInt(b.amount)] }),
    describe: (token, b) => forcedTransferSummary(token, b.from, b.to, b.amount),
  });

  for (const frozen of [true, false]) {
    const verb = frozen ? "freeze" : "unfreeze";
    tokenWriteRoute(app, ctx, {
      method: "post",
      path: `${verb}-address`,
      summary: `${frozen ? "Freeze" : "Unfreeze"} an address (POST /tokens/{tokenAddress}/${verb}-address)`,
      description: `Body \`{account}\`: setAddressFrozen(account, ${frozen}). Needs the token's CUSTODIAN_ROLE.`,
      permission: "token:custody",
      body: AccountBodySchema,
      kind: frozen ? "token.address.freeze" : "token.address.unfreeze",
      encode: (b) => call({ functionName: "setAddressFrozen", args: [getAddress(b.account), frozen] }),
      describe: (token, b) => `${frozen ? "Freeze" : "Unfreeze"} ${shortAddress(b.account)} on ${token.symbol}`,
    });

    tokenWriteRoute(app, ctx, {
      method: "post",
      path: `${verb}-tokens`,
      summary: `${frozen ? "Freeze" : "Unfreeze"} part of a balance (POST /tokens/{tokenAddress}/${verb}-tokens)`,
      description:
        `Body \`{account, amount}\` (raw units): ${frozen ? "freezePartialTokens" : "unfreezePartialTokens"}. ` +
        "A frozen amount cannot be transferred or burned (SVC-1106). Needs the token's CUSTODIAN_ROLE.",
      permission: "token:custody",
      body: AccountAmountBodySchema,
      kind: frozen ? "token.balance.freeze" : "token.balance.unfreeze",
      encode: (b) =>
        call({
          functionName: frozen ? "freezePartialTokens" : "unfreezePartialTokens",
          args: [getAddress(b.account), BigInt(b.amount)],
        }),
      describe: (token, b) =>
        `${frozen ? "Freeze" : "Unfreeze"} ${amountOf(token, b.amount)} of ${shortAddress(b.account)}`,
    });

    tokenWriteRoute(app, ctx, {
      method: "post",
      path: frozen ? "pause" : "unpause",
      summary: `${frozen ? "Pause" : "Unpause"} the token (POST /tokens/{tokenAddress}/${frozen ? "pause" : "unpause"})`,
      description: "Body optional (walletVerification for sessions). Needs the token's EMERGENCY_ROLE.",
      permission: "token:pause",
      body: EmptyWriteBodySchema,
      bodyOptional: true,
      kind: frozen ? "token.pause" : "token.unpause",
      encode: () => call({ functionName: frozen ? "pause" : "unpause" }),
      describe: (token) => `${frozen ? "Pause" : "Unpause"} ${token.symbol}`,
    });
  }
}
