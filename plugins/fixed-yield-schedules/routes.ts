// The spec's five fixed yield schedule routes: create, read one, top up, withdraw, claim.
import { createRoute } from "@hono/zod-openapi";
import { getAddress } from "viem";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { jsonBody, mutationResponses, singleResponses } from "../../host/http/schemas.ts";
import { submitSystemWrite } from "../../host/mutations/system-write.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { findSchedule, scheduleView } from "./schedules.ts";
import {
  ClaimBodySchema,
  CreateFixedYieldScheduleBodySchema,
  FixedYieldScheduleSchema,
  ScheduleParamsSchema,
  ScheduleQuerySchema,
  TopUpBodySchema,
  WithdrawalBodySchema,
} from "./schemas.ts";
import { assertTerms, claimWrite, createWrite, topUpWrite, withdrawalWrite } from "./writes.ts";

const TAGS = ["addons"];
const BASE = "/api/v2/addons/fixed-yield-schedules";
const MANAGE = "fixedYieldSchedule:manage";

const create = createRoute({
  method: "post",
  path: BASE,
  tags: TAGS,
  summary: "Create a fixed yield schedule for a token (the signing wallet is its owner)",
  description:
    "Refused before queueing: endDate not after startDate, more than 1000 periods, or startDate not after the " +
    "chain's current time (400); " +
    "a token that is not the system's or lacks historical-balances (422 FIXED_YIELD_TOKEN_INVALID, details.reason); " +
    "a denominationAsset that is neither a system token nor a registered external token " +
    "(422 FIXED_YIELD_DENOMINATION_ASSET_INVALID). Completed: data.scheduleAddress.",
  middleware: [requirePermission(MANAGE)],
  request: { body: jsonBody(CreateFixedYieldScheduleBodySchema) },
  responses: mutationResponses,
});

const read = createRoute({
  method: "get",
  path: `${BASE}/{scheduleAddress}`,
  tags: TAGS,
  summary: "Read one fixed yield schedule: terms, funds, periods, and with ?holder= that holder's position",
  description:
    "A schedule of the organisation's system (else 404 FIXED_YIELD_SCHEDULE_NOT_FOUND). Terms, funded and claimed " +
    "amounts come from the index; a completed period's totalYield and the holder's claimable are read live.",
  middleware: [requirePermission("fixedYieldSchedule:read")],
  request: { params: ScheduleParamsSchema, query: ScheduleQuerySchema },
  responses: singleResponses(FixedYieldScheduleSchema, "The schedule"),
});

const topUp = createRoute({
  method: "post",
  path: `${BASE}/{scheduleAddress}/top-ups`,
  tags: TAGS,
  summary: "Deposit denomination asset into the schedule (topUp, pulled from the signing wallet)",
  description:
    "Grant the schedule an allowance first (POST /api/v2/tokens/{tokenAddress}/approvals {spender: scheduleAddress, " +
    "amount}); a short balance or allowance is refused before queueing (422 ERC20_BALANCE_INSUFFICIENT, " +
    "ERC20_ALLOWANCE_INSUFFICIENT).",
  middleware: [requirePermission(MANAGE)],
  request: { params: ScheduleParamsSchema, body: jsonBody(TopUpBodySchema) },
  responses: mutationResponses,
});

const withdraw = createRoute({
  method: "post",
  path: `${BASE}/{scheduleAddress}/withdrawals`,
  tags: TAGS,
  summary: "Withdraw denomination asset from the schedule (owner only)",
  description:
    "The signing wallet must be the schedule's owner (403 FIXED_YIELD_NOT_OWNER); more than the schedule holds is " +
    "refused before queueing (422 FIXED_YIELD_SCHEDULE_UNDERFUNDED with requested and available).",
  middleware: [requirePermission(MANAGE)],
  request: { params: ScheduleParamsSchema, body: jsonBody(WithdrawalBodySchema) },
  responses: mutationResponses,
});

const claim = createRoute({
  method: "post",
  path: `${BASE}/{scheduleAddress}/claims`,
  tags: TAGS,
  summary: "Claim the signing wallet's yield for its unclaimed completed periods (claim)",
  description:
    "The signing wallet claims for itself (choose it with accountWalletId, X-Participant or smartWalletAddress). " +
    "Refused before queueing: nothing due (422 FIXED_YIELD_NOTHING_DUE), or the schedule holds less than what is " +
    "due (422 FIXED_YIELD_SCHEDULE_UNDERFUNDED with due and available).",
  middleware: [requirePermission("fixedYieldSchedule:claim")],
  request: { params: ScheduleParamsSchema, body: jsonBody(ClaimBodySchema) },
  responses: mutationResponses,
});

export function fixedYieldRoutes(app: App, ctx: PluginContext) {
  app.openapi(create, async (c) => {
    const body = c.req.valid("json");
    assertTerms(body);
    return submitSystemWrite(c, ctx, body, (chain) => createWrite(chain, body));
  });

  app.openapi(read, async (c) => {
    const chain = await requestChain(c, ctx);
    const row = await findSchedule(chain, c.req.valid("param").scheduleAddress);
    const { holder } = c.req.valid("query");
    const view = await scheduleView(chain, row, holder ? getAddress(holder) : undefined);
    return c.json(single(c, view), 200);
  });

  app.openapi(topUp, async (c) => {
    const body = c.req.valid("json");
    const { scheduleAddress } = c.req.valid("param");
    return submitSystemWrite(c, ctx, body, (chain, signer) =>
      topUpWrite(chain, signer, scheduleAddress, BigInt(body.amount)),
    );
  });

  app.openapi(withdraw, async (c) => {
    const body = c.req.valid("json");
    const { scheduleAddress } = c.req.valid("param");
    return submitSystemWrite(c, ctx, body, (chain, signer) =>
      withdrawalWrite(chain, signer, scheduleAddress, { to: body.to, amount: BigInt(body.amount) }),
    );
  });

  app.openapi(claim, async (c) => {
    const body = c.req.valid("json");
    const { scheduleAddress } = c.req.valid("param");
    return submitSystemWrite(c, ctx, body, (chain, signer) => claimWrite(chain, signer, scheduleAddress));
  });
}
