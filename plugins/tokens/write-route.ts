// The one shape of a token operation route: a chain write on the organisation's token through the mutation pipeline
// (Idempotency-Key, Prefer, the mutation envelope), after the request chain, the token and the wallet check.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { type Address, getAddress, type Hex } from "viem";
import type { Permission } from "../../host/auth/permissions.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { verifyWalletForWrite, type WalletVerification } from "../../host/auth/wallet-verification.ts";
import { type RequestChain, requestChain } from "../../host/chain/request-chain.ts";
import type { LedgerTables } from "../../host/db/ledger-types.ts";
import type { WalletSelection } from "../../host/db/platform-types.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { AddressSchema, mutationResponses } from "../../host/http/schemas.ts";
import { submitChainWrite, walletSelectionOf } from "../../host/mutations/submit-mutation.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { findOrgToken } from "./routes.ts";

export type WriteBody = WalletSelection & { walletVerification?: WalletVerification };
type IndexedToken = LedgerTables["token"];

export interface TokenWrite {
  tokenAddress: string;
  body: WriteBody;
  /** The mutation kind (see mutation-kinds.ts). */
  kind: string;
  /** The call on the token, encoded once the checks passed. */
  encode: () => Hex;
  /** Refuses the write from the indexed token before anything is queued (e.g. a feature it needs). */
  check?: (token: IndexedToken) => void;
  /** Refuses the write from the chain's state before anything is queued (e.g. an unverified receiver). */
  precheck?: (chain: RequestChain) => Promise<void>;
  /** The contract called, when not the token itself (e.g. one of its features), read on the request chain. */
  target?: (token: IndexedToken, chain: RequestChain) => Promise<Address>;
  /** The request's human summary, e.g. "Mint 1,500.5 EURD to 0x7099…79C8" (default: the kind and decoded call). */
  describe?: (token: IndexedToken) => string;
}

export async function submitTokenWrite(c: Context<AppEnv>, ctx: PluginContext, write: TokenWrite) {
  const chain = await requestChain(c, ctx);
  const token = await findOrgToken(chain, write.tokenAddress);
  write.check?.(token);
  await write.precheck?.(chain);
  await verifyWalletForWrite(c, ctx.db.platform, write.body.walletVerification);
  return submitChainWrite(c, ctx, {
    chainId: chain.chainId,
    kind: write.kind,
    to: write.target ? await write.target(token, chain) : getAddress(write.tokenAddress),
    data: write.encode(),
    walletSelection: walletSelectionOf(write.body),
    ...(write.describe ? { description: write.describe(token) } : {}),
  });
}

export interface TokenWriteRoute<Body extends z.ZodType<WriteBody>, Extra extends z.ZodRawShape> {
  method: "post" | "put" | "patch" | "delete";
  /** Below /api/v2/tokens/{tokenAddress}/, e.g. `burn` or `documents/{documentName}`. */
  path: string;
  summary: string;
  description?: string;
  permission: Permission;
  body: Body;
  /** An optional body (no parameters besides walletVerification and the signer selection). */
  bodyOptional?: boolean;
  /** Path parameters besides tokenAddress. */
  params?: Extra;
  kind: string;
  encode: (body: z.output<Body>, params: z.output<z.ZodObject<Extra>>) => Hex;
  check?: (token: IndexedToken, body: z.output<Body>) => void;
  /** Refuses the write from the chain's state before anything is queued (see TokenWrite.precheck). */
  precheck?: (chain: RequestChain, body: z.output<Body>) => Promise<void>;
  /** The contract called, when not the token itself (read on the request chain). */
  target?: (token: IndexedToken, chain: RequestChain) => Promise<Address>;
  /** The request's human summary (see TokenWrite.describe). */
  describe?: (token: IndexedToken, body: z.output<Body>) => string;
}

/** A token operation's definition, typed from its body schema (what tokenWriteRoute mounts; tests encode with it). */
export function tokenOperation<Body extends z.ZodType<WriteBody>, Extra extends z.ZodRawShape = Record<string, never>>(
  def: TokenWriteRoute<Body, Extra>,
): TokenWriteRoute<Body, Extra> {
  return def;
}

export function tokenWriteRoute<Body extends z.ZodType<WriteBody>, Extra extends z.ZodRawShape = Record<string, never>>(
  app: App,
  ctx: PluginContext,
  def: TokenWriteRoute<Body, Extra>,
) {
  const params = z.object({ tokenAddress: AddressSchema, ...(def.params ?? ({} as Extra)) });
  const route = createRoute({
    method: def.method,
    path: `/api/v2/tokens/{tokenAddress}/${def.path}`,
    tags: ["token"],
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    middleware: [requirePermission(def.permission)],
    request: {
      params,
      body: { required: !def.bodyOptional, content: { "application/json": { schema: def.body } } },
    },
    responses: mutationResponses,
  });
  app.openapi(route, async (c) => {
    // The route is generic in its schemas, so the validated inputs are read untyped and typed from the definition.
    const valid = (target: "param" | "json") => (c.req as unknown as { valid(t: string): unknown }).valid(target);
    const { tokenAddress, ...rest } = valid("param") as { tokenAddress: string } & Record<string, unknown>;
    const body = valid("json") as z.output<Body>;
    return submitTokenWrite(c, ctx, {
      tokenAddress,
      body,
      kind: def.kind,
      encode: () => def.encode(body, rest as z.output<z.ZodObject<Extra>>),
      ...(def.check ? { check: (token: IndexedToken) => def.check!(token, body) } : {}),
      ...(def.precheck ? { precheck: (chain: RequestChain) => def.precheck!(chain, body) } : {}),
      ...(def.target ? { target: def.target } : {}),
      ...(def.describe ? { describe: (token: IndexedToken) => def.describe!(token, body) } : {}),
    });
  });
}
