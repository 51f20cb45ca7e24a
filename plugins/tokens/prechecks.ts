// Pre-check: would a mint, transfer or burn pass, and if not, which rule refuses it? The operation runs as an
// eth_call against the chain's current state (token rules, the compliance engine's modules, features), nothing sent;
// a refusal is reported with the same code the write itself would be refused with.
import { createRoute, z } from "@hono/zod-openapi";
import { type Address, encodeFunctionData, getAddress, type Hex } from "viem";
import { TokenAbi } from "../../abis/Token.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { type Simulation, simulateCall } from "../../host/chain/simulate.ts";
import { badRequest } from "../../host/errors/api-error.ts";
import { errorDefinition } from "../../host/errors/registry.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { AddressSchema, errorResponses, linksSelf, UintStringSchema } from "../../host/http/schemas.ts";
import { revertError } from "../../host/mutations/revert-errors.ts";
import { requestSigner } from "../../host/mutations/submit-mutation.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { findOrgToken } from "./routes.ts";

const ACTIONS = ["mint", "transfer", "burn"] as const;
type Action = (typeof ACTIONS)[number];

const PrecheckQuerySchema = z.object({
  action: z.enum(ACTIONS),
  from: AddressSchema.optional().openapi({
    description: "burn: the holder (required); transfer: the sender (default: the signing wallet); not for mint",
  }),
  to: AddressSchema.optional().openapi({ description: "mint and transfer: the recipient (required); not for burn" }),
  amount: UintStringSchema.openapi({ description: "raw units" }),
});
type PrecheckQuery = z.infer<typeof PrecheckQuerySchema>;

const RefusalSchema = z
  .object({
    code: z
      .string()
      .openapi({ description: "The code the write would be refused with, e.g. TOKEN_FROZEN_BALANCE_EXCEEDED" }),
    id: z.string().openapi({ description: "Its stable error id, e.g. SVC-1106" }),
    status: z.number().int(),
    message: z.string(),
    module: z.string().optional().openapi({ description: "compliance refusals: the module's address" }),
    typeId: z.string().optional().openapi({ description: "compliance refusals: the control type id" }),
    reason: z.string().optional().openapi({ description: "compliance refusals: the module's reason" }),
    dalpCode: z.string().optional().openapi({ description: "The contract error's stable code, e.g. TOKEN_PAUSED" }),
    retryable: z.boolean().optional().openapi({ description: "Whether the write can pass once the cause is resolved" }),
    suggestedAction: z.string().optional().openapi({ description: "What to do before sending the write" }),
    contractError: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough()
  .openapi("PrecheckRefusal");

const PrecheckResultSchema = z
  .object({
    action: z.enum(ACTIONS),
    from: z.string().nullable(),
    to: z.string().nullable(),
    amount: z.string(),
    sender: z.string().openapi({ description: "The account the operation was checked as sent by" }),
    allowed: z.boolean(),
    refusal: RefusalSchema.nullable(),
  })
  .openapi("PrecheckResult");

const precheckRoute = createRoute({
  method: "get",
  path: "/api/v2/tokens/{tokenAddress}/pre-check",
  tags: ["token"],
  summary: "Pre-check a mint, transfer or burn: would it pass, and which rule refuses it (sends nothing)",
  description:
    "GET /tokens/{tokenAddress}/pre-check?action=mint|transfer|burn&from=&to=&amount=. Runs the operation as an " +
    "eth_call on the current chain state: mint and burn as the signing wallet, transfer as `from`. A refusal names " +
    "its code: TOKEN_PAUSED, TOKEN_ACCOUNT_FROZEN, TOKEN_FROZEN_BALANCE_EXCEEDED (SVC-1106), " +
    "TOKEN_INSUFFICIENT_BALANCE, COMPLIANCE_CHECK_FAILED (with module, typeId, reason), CONTRACT_ROLE_MISSING, " +
    "or CONTRACT_ERROR.",
  middleware: [requirePermission("token:read")],
  request: { params: z.object({ tokenAddress: AddressSchema }), query: PrecheckQuerySchema },
  responses: {
    200: {
      description: "The verdict",
      content: { "application/json": { schema: z.object({ data: PrecheckResultSchema, links: linksSelf }) } },
    },
    ...errorResponses,
  },
});

/** Which of from/to each action takes. */
const PARTIES: Record<Action, { from: "required" | "optional" | "unused"; to: "required" | "unused" }> = {
  mint: { from: "unused", to: "required" },
  transfer: { from: "optional", to: "required" },
  burn: { from: "required", to: "unused" },
};

function checkParties(query: PrecheckQuery) {
  const parties = PARTIES[query.action];
  for (const name of ["from", "to"] as const) {
    const rule = parties[name];
    if (rule === "required" && query[name] === undefined) {
      throw badRequest(`${query.action} needs ${name}`, [{ path: name, message: `required for ${query.action}` }]);
    }
    if (rule === "unused" && query[name] !== undefined) {
      throw badRequest(`${query.action} takes no ${name}`, [{ path: name, message: `not used by ${query.action}` }]);
    }
  }
}

/** The call the operation makes and who sends it. */
function operationCall(query: PrecheckQuery, signer: Address): { sender: Address; data: Hex } {
  const amount = BigInt(query.amount);
  switch (query.action) {
    case "mint":
      return {
        sender: signer,
        data: encodeFunctionData({ abi: TokenAbi, functionName: "mint", args: [getAddress(query.to!), amount] }),
      };
    case "burn":
      return {
        sender: signer,
        data: encodeFunctionData({ abi: TokenAbi, functionName: "burn", args: [getAddress(query.from!), amount] }),
      };
    case "transfer":
      return {
        sender: query.from ? getAddress(query.from) : signer,
        data: encodeFunctionData({ abi: TokenAbi, functionName: "transfer", args: [getAddress(query.to!), amount] }),
      };
  }
}

function refusalOf(simulation: Extract<Simulation, { ok: false }>) {
  if (!simulation.contractError) {
    const { id, status } = errorDefinition("CONTRACT_ERROR");
    return { code: "CONTRACT_ERROR", id, status, message: simulation.message };
  }
  const error = revertError(simulation.contractError);
  return {
    code: error.code,
    id: error.definition.id,
    status: error.status,
    message: error.message,
    ...error.details,
  };
}

export function precheckRoutes(app: App, ctx: PluginContext) {
  app.openapi(precheckRoute, async (c) => {
    const { tokenAddress } = c.req.valid("param");
    const query = c.req.valid("query");
    checkParties(query);
    const chain = await requestChain(c, ctx);
    const token = await findOrgToken(chain, tokenAddress);
    const signer = await requestSigner(c, ctx);
    const { sender, data } = operationCall(query, getAddress(signer));
    const simulation = await simulateCall(chain.client, { from: sender, to: getAddress(token.id), data });
    return c.json(
      single(c, {
        action: query.action,
        from: query.from ?? (query.action === "transfer" ? sender : null),
        to: query.to ?? null,
        amount: query.amount,
        sender,
        allowed: simulation.ok,
        refusal: simulation.ok ? null : refusalOf(simulation),
      }),
      200,
    );
  });
}
