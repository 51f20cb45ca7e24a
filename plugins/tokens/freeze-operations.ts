// The custodian's and emergency writes on a token, each with its inverse: freeze or unfreeze an address, freeze or
// unfreeze part of a balance, pause or unpause the token.
import { getAddress } from "viem";
import type { App } from "../../host/http/env.ts";
import { shortAddress } from "../../host/mutations/describe.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { AccountAmountBodySchema, AccountBodySchema, EmptyWriteBodySchema } from "./operations-schemas.ts";
import { tokenCall } from "./token-calls.ts";
import { tokenOperation, tokenWriteRoute } from "./write-route.ts";
import { amountOf } from "./write-summaries.ts";

const verbOf = (frozen: boolean) => (frozen ? "freeze" : "unfreeze");

export const addressFreezeOperation = (frozen: boolean) =>
  tokenOperation({
    method: "post",
    path: `${verbOf(frozen)}-address`,
    summary: `${frozen ? "Freeze" : "Unfreeze"} an address (POST /tokens/{tokenAddress}/${verbOf(frozen)}-address)`,
    description: `Body \`{account}\`: setAddressFrozen(account, ${frozen}). Needs the token's CUSTODIAN_ROLE.`,
    permission: "token:custody",
    body: AccountBodySchema,
    kind: frozen ? "token.address.freeze" : "token.address.unfreeze",
    encode: (b) => tokenCall({ functionName: "setAddressFrozen", args: [getAddress(b.account), frozen] }),
    describe: (token, b) => `${frozen ? "Freeze" : "Unfreeze"} ${shortAddress(b.account)} on ${token.symbol}`,
  });

export const partialFreezeOperation = (frozen: boolean) =>
  tokenOperation({
    method: "post",
    path: `${verbOf(frozen)}-tokens`,
    summary: `${frozen ? "Freeze" : "Unfreeze"} part of a balance (POST /tokens/{tokenAddress}/${verbOf(frozen)}-tokens)`,
    description:
      `Body \`{account, amount}\` (raw units): ${frozen ? "freezePartialTokens" : "unfreezePartialTokens"}. ` +
      "A frozen amount cannot be transferred or burned (SVC-1106). Needs the token's CUSTODIAN_ROLE.",
    permission: "token:custody",
    body: AccountAmountBodySchema,
    kind: frozen ? "token.balance.freeze" : "token.balance.unfreeze",
    encode: (b) =>
      tokenCall({
        functionName: frozen ? "freezePartialTokens" : "unfreezePartialTokens",
        args: [getAddress(b.account), BigInt(b.amount)],
      }),
    describe: (token, b) =>
      `${frozen ? "Freeze" : "Unfreeze"} ${amountOf(token, b.amount)} of ${shortAddress(b.account)}`,
  });

export const pauseOperation = (paused: boolean) =>
  tokenOperation({
    method: "post",
    path: paused ? "pause" : "unpause",
    summary: `${paused ? "Pause" : "Unpause"} the token (POST /tokens/{tokenAddress}/${paused ? "pause" : "unpause"})`,
    description: "Body optional (walletVerification for sessions). Needs the token's EMERGENCY_ROLE.",
    permission: "token:pause",
    body: EmptyWriteBodySchema,
    bodyOptional: true,
    kind: paused ? "token.pause" : "token.unpause",
    encode: () => tokenCall({ functionName: paused ? "pause" : "unpause" }),
    describe: (token) => `${paused ? "Pause" : "Unpause"} ${token.symbol}`,
  });

/** The three writes of one direction: `frozen` freezes and pauses, else unfreezes and unpauses. */
export function freezeOperationRoutes(app: App, ctx: PluginContext, frozen: boolean) {
  tokenWriteRoute(app, ctx, addressFreezeOperation(frozen));
  tokenWriteRoute(app, ctx, partialFreezeOperation(frozen));
  tokenWriteRoute(app, ctx, pauseOperation(frozen));
}
