// GET /api/v2/smart-wallets/{address}, its live signers and its gas status.
import { createRoute } from "@hono/zod-openapi";
import { type Address, getAddress } from "viem";
import { requirePermission } from "../../host/auth/require-permission.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonResponse } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { dataOf, GasStatusSchema, SignersSchema, SmartWalletSchema, WalletParams } from "./schemas.ts";
import { liveSigners, organisationPaymaster, sponsorship } from "./wallet-chain.ts";
import { walletOfRequest, walletRecord } from "./wallet-query.ts";

const WalletResponse = jsonResponse(dataOf(SmartWalletSchema), "The smart wallet");
const tags = ["smart wallets"];

/** A read of one wallet of the organisation, by its address. */
const walletRead = <R extends ReturnType<typeof jsonResponse>>(suffix: string, summary: string, response: R) =>
  createRoute({
    method: "get",
    path: `/api/v2/smart-wallets/{address}${suffix}`,
    tags,
    summary,
    middleware: [requirePermission("smartWallet:read")],
    request: { params: WalletParams },
    responses: { 200: response, ...errorResponses },
  });

const getOne = walletRead("", "A smart wallet of the organisation, with its deployment state", WalletResponse);
const signers = walletRead(
  "/signers",
  "The wallet's signers and weights and its threshold, as on chain now",
  jsonResponse(dataOf(SignersSchema), "Signers"),
);
const gasStatus = walletRead(
  "/gas-status",
  "The wallet's balance, whether a paymaster will pay its gas, whether the chain charges for gas",
  jsonResponse(dataOf(GasStatusSchema), "Gas status"),
);

export function walletReadRoutes(app: App, ctx: PluginContext<"custody">) {
  app.openapi(getOne, async (c) => {
    const { wallet } = await walletOfRequest(c, ctx, c.req.valid("param").address);
    return c.json(single(c, walletRecord(wallet)), 200);
  });

  app.openapi(signers, async (c) => {
    const { organizationId } = c.get("principal");
    const { chain, wallet } = await walletOfRequest(c, ctx, c.req.valid("param").address);
    if (wallet.step !== "deployed" && !(await chain.client.getCode({ address: wallet.address as Address })))
      return c.json(
        single(c, {
          threshold: String(wallet.threshold),
          totalWeight: wallet.signers.reduce((sum, s) => sum + BigInt(s.weight), 0n).toString(),
          signers: wallet.signers.map((s) => ({ ...s, participantId: null })),
        }),
        200,
      );
    const live = await liveSigners(chain, wallet.address as Address);
    const owners = await ctx.db.platform
      .selectFrom("wallets")
      .select(["address", "userId"])
      .where("organizationId", "=", organizationId)
      .where("address", "in", live.signers.length ? live.signers.map((s) => s.address) : [""])
      .execute();
    const ownerOf = new Map(owners.map((o) => [o.address, o.userId]));
    return c.json(
      single(c, {
        threshold: live.threshold.toString(),
        totalWeight: live.signers.reduce((sum, s) => sum + s.weight, 0n).toString(),
        signers: live.signers.map((s) => ({
          address: getAddress(s.address),
          weight: s.weight.toString(),
          participantId: ownerOf.get(s.address) ?? null,
        })),
      }),
      200,
    );
  });

  app.openapi(gasStatus, async (c) => {
    const { organizationId } = c.get("principal");
    const { chain, wallet } = await walletOfRequest(c, ctx, c.req.valid("param").address);
    const address = wallet.address as Address;
    const paymaster = await organisationPaymaster(chain, await ctx.custody.primaryAddresses(organizationId));
    const [balance, sponsor, fees] = await Promise.all([
      chain.client.getBalance({ address }),
      sponsorship(chain, paymaster, address),
      chain.client.estimateFeesPerGas(),
    ]);
    // Enough deposit: what an operation of a million gas at today's fee may cost at most.
    const enough = sponsor.deposit >= 1_000_000n * fees.maxFeePerGas;
    return c.json(
      single(c, {
        balance: balance.toString(),
        sponsored: sponsor.deployed && sponsor.sponsored && enough,
        zeroGas: fees.maxFeePerGas === 0n,
        paymaster: sponsor.deployed ? getAddress(paymaster) : null,
        paymasterDeposit: sponsor.deployed ? sponsor.deposit.toString() : null,
      }),
      200,
    );
  });
}
