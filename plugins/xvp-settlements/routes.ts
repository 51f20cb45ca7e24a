// XvP settlements: create one with the system's xvp-settlement factory, read it from the index, and approve,
// execute or cancel it (each a chain write on the settlement, refused before queueing by its precheck).

import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { type Address, encodeFunctionData, getAddress, type Hex, zeroHash } from "viem";
import { XvPSettlementAbi } from "../../abis/XvPSettlement.ts";
import { XvPSettlementFactoryAbi } from "../../abis/XvPSettlementFactory.ts";
import { systemAddonFactory } from "../../host/addons/factory.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { chainNow } from "../../host/chain/chain-time.ts";
import { type RequestChain, requestChain } from "../../host/chain/request-chain.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { AddressSchema, jsonBody, mutationResponses, singleResponses } from "../../host/http/schemas.ts";
import { type SignerInput, submitSystemWrite } from "../../host/mutations/system-write.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { assertApprovable, assertCancellable, assertCreatable, assertExecutable } from "./prechecks.ts";
import {
  CreateXvpSettlementBodySchema,
  ExecuteXvpSettlementBodySchema,
  SignerOnlyBodySchema,
  XvpSettlementSchema,
} from "./schemas.ts";
import { type Settlement, toSettlement, visibleSettlement } from "./settlement-query.ts";

const TAGS = ["addons"];
const BASE = "/api/v2/addons/xvp-settlements";
const READ = "xvpSettlement:read";
const WRITE = "xvpSettlement:write";
const TYPE_NAME = "xvp-settlement";
const AddressParam = z.object({ address: AddressSchema.openapi({ description: "The settlement's address" }) });

const create = createRoute({
  method: "post",
  path: BASE,
  tags: TAGS,
  summary: "Create an XvP settlement (create(flows, cutoff, hashlock) on the system's xvp-settlement factory)",
  description:
    "Multi-leg delivery versus payment between wallets of one or several organisations: every sender (a party) " +
    "approves its outgoing legs, then one execution moves every leg or none, before cutoffDate. Refused before " +
    "queueing with 422 XVP_SETTLEMENT_INVALID (a flow with equal from and to or a zero amount, a cutoffDate not " +
    "after the chain's time). Completed: data.settlementAddress.",
  middleware: [requirePermission(WRITE)],
  request: { body: jsonBody(CreateXvpSettlementBodySchema) },
  responses: mutationResponses,
});

const read = createRoute({
  method: "get",
  path: `${BASE}/{address}`,
  tags: TAGS,
  summary: "Read an XvP settlement: flows, approvals per party, status",
  description:
    "Visible to the organisation whose system created it and to any organisation one of whose wallets sends or " +
    "receives a leg; otherwise 404 XVP_SETTLEMENT_NOT_FOUND. EXPIRED compares the cutoff with the chain's time.",
  middleware: [requirePermission(READ)],
  request: { params: AddressParam },
  responses: singleResponses(XvpSettlementSchema, "The settlement"),
});

const action = (path: string, summary: string, description: string, body: z.ZodType = SignerOnlyBodySchema) =>
  createRoute({
    method: "post",
    path: `${BASE}/{address}/${path}`,
    tags: TAGS,
    summary,
    description,
    middleware: [requirePermission(WRITE)],
    request: { params: AddressParam, body: jsonBody(body, false) },
    responses: mutationResponses,
  });

const approve = action(
  "approvals",
  "Approve the signing wallet's outgoing legs (approve() on the settlement)",
  "The signing wallet must send a leg (403 XVP_SETTLEMENT_NOT_PARTY) and have granted the settlement an allowance " +
    "covering its legs of each asset (422 ERC20_ALLOWANCE_INSUFFICIENT naming asset, spender and required; " +
    "grant it with POST /api/v2/tokens/{tokenAddress}/approvals) and the balance (422 " +
    "ERC20_BALANCE_INSUFFICIENT). An executed, cancelled or expired settlement: 409.",
);

const execute = action(
  "executions",
  "Execute the settlement: every leg moves in one transaction, or none (execute(secret))",
  "Refused before queueing when a party has not approved (422 XVP_SETTLEMENT_NOT_APPROVED, details.missingApprovals), " +
    "the cutoff passed (409 XVP_SETTLEMENT_EXPIRED), it is executed or cancelled (409), or, with a hashlock, secret " +
    "is missing or wrong (422 XVP_SETTLEMENT_SECRET_INVALID).",
  ExecuteXvpSettlementBodySchema,
);

const cancel = action(
  "cancellations",
  "Cancel the settlement (cancel()): nothing moves any more",
  "By a wallet that sends or receives a leg, or the creator (else 403 XVP_SETTLEMENT_NOT_PARTY); an executed or " +
    "cancelled settlement: 409.",
);

/** The system's xvp-settlement factory, from the index. */
async function factoryOf(chain: RequestChain): Promise<Address> {
  const factory = await systemAddonFactory(chain.ledger, chain.systemAddress as Address, TYPE_NAME);
  if (!factory) throw new ApiError("XVP_SETTLEMENT_FACTORY_NOT_FOUND", { details: { chainId: chain.chainId } });
  return factory;
}

export function xvpSettlementRoutes(app: App, ctx: PluginContext) {
  /** A write on the settlement at the path's address, once the organisation may see it and `check` passes. */
  const settlementWrite = async (
    c: Context<AppEnv>,
    address: string,
    body: SignerInput,
    kind: string,
    data: Hex,
    check: (chain: RequestChain, settlement: Settlement, signer: Address) => Promise<void>,
  ) => {
    const settlement = await visibleSettlement(c, ctx, await requestChain(c, ctx), address);
    return submitSystemWrite(c, ctx, body, (chain, signer) => ({
      precheck: () => check(chain, settlement, signer),
      kind,
      to: getAddress(settlement.row.id),
      data,
    }));
  };
  const call = (functionName: "approve" | "cancel") => encodeFunctionData({ abi: XvPSettlementAbi, functionName });

  app.openapi(create, async (c) => {
    const body = c.req.valid("json");
    const cutoff = BigInt(Math.floor(body.cutoffDate.getTime() / 1000));
    const flows = body.flows.map((f) => ({
      asset: getAddress(f.asset),
      from: getAddress(f.from),
      to: getAddress(f.to),
      amount: BigInt(f.amount),
    }));
    return submitSystemWrite(c, ctx, body, async (chain) => ({
      precheck: () => assertCreatable(chain, body.flows, cutoff),
      kind: "xvpSettlement.create",
      to: await factoryOf(chain),
      data: encodeFunctionData({
        abi: XvPSettlementFactoryAbi,
        functionName: "create",
        args: [flows, cutoff, (body.hashlock ?? zeroHash) as Hex],
      }),
    }));
  });

  app.openapi(read, async (c) => {
    const chain = await requestChain(c, ctx);
    const settlement = await visibleSettlement(c, ctx, chain, c.req.valid("param").address);
    return c.json(single(c, await toSettlement(chain, settlement, await chainNow(chain.client))), 200);
  });

  app.openapi(approve, async (c) =>
    settlementWrite(
      c,
      c.req.valid("param").address,
      c.req.valid("json") ?? {},
      "xvpSettlement.approve",
      call("approve"),
      assertApprovable,
    ),
  );

  app.openapi(execute, async (c) => {
    const body = (c.req.valid("json") ?? {}) as z.infer<typeof ExecuteXvpSettlementBodySchema>;
    const secret = body.secret as Hex | undefined;
    const data = encodeFunctionData({ abi: XvPSettlementAbi, functionName: "execute", args: [secret ?? "0x"] });
    const { address } = c.req.valid("param");
    return settlementWrite(c, address, body, "xvpSettlement.execute", data, (chain, s) =>
      assertExecutable(chain, s, secret),
    );
  });

  app.openapi(cancel, async (c) =>
    settlementWrite(
      c,
      c.req.valid("param").address,
      c.req.valid("json") ?? {},
      "xvpSettlement.cancel",
      call("cancel"),
      assertCancellable,
    ),
  );
}
