// Issuer metadata: PATCH sets and removes keys in one transaction (the token's multicall); GET reads the index.

import { createRoute, z } from "@hono/zod-openapi";
import type { Address } from "viem";
import { encodeFunctionData } from "viem";
import { TokenAbi } from "../../abis/Token.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { isoFromSeconds } from "../../host/db/ledger-types.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { AddressSchema, errorResponses, linksSelf } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { MetadataPatchBodySchema } from "./operations-schemas.ts";
import { findOrgToken } from "./routes.ts";
import { asOneCall } from "./token-calls.ts";
import { tokenWriteRoute } from "./write-route.ts";

const MetadataEntrySchema = z.object({ key: z.string(), value: z.string(), updatedAt: z.string() });

const getMetadata = createRoute({
  method: "get",
  path: "/api/v2/tokens/{tokenAddress}/metadata",
  tags: ["token"],
  summary: "Read the token's issuer metadata from the index",
  middleware: [requirePermission("token:read")],
  request: { params: z.object({ tokenAddress: AddressSchema }) },
  responses: {
    200: {
      description: "Every key with its value (`fields`), and the entries with their last update",
      content: {
        "application/json": {
          schema: z.object({
            data: z.object({ fields: z.record(z.string(), z.string()), entries: z.array(MetadataEntrySchema) }),
            links: linksSelf,
          }),
        },
      },
    },
    ...errorResponses,
  },
});

export function metadataRoutes(app: App, ctx: PluginContext) {
  tokenWriteRoute(app, ctx, {
    method: "patch",
    path: "metadata",
    summary: "Set and remove issuer metadata keys in one write",
    description:
      "Body `{fields: {key: value | null}}`: a string sets the key, null removes it. All changes are one " +
      "transaction (the token's multicall). Needs the token's GOVERNANCE_ROLE; removing an absent key is refused.",
    permission: "token:governance",
    body: MetadataPatchBodySchema,
    kind: "token.metadata.update",
    encode: (b) =>
      asOneCall(
        Object.entries(b.fields).map(([key, value]) =>
          value === null
            ? encodeFunctionData({ abi: TokenAbi, functionName: "removeMetadata", args: [key] })
            : encodeFunctionData({ abi: TokenAbi, functionName: "setMetadata", args: [key, value] }),
        ),
      ),
  });

  app.openapi(getMetadata, async (c) => {
    const { tokenAddress } = c.req.valid("param");
    const chain = await requestChain(c, ctx);
    const token = await findOrgToken(chain, tokenAddress);
    const rows = await chain.ledger
      .selectFrom("tokenMetadata")
      .selectAll()
      .where("token", "=", token.id as Address)
      .orderBy("key")
      .execute();
    const entries = rows.map((r) => ({
      key: r.key,
      value: r.value,
      updatedAt: isoFromSeconds(r.updatedAt),
    }));
    return c.json(single(c, { fields: Object.fromEntries(rows.map((r) => [r.key, r.value])), entries }), 200);
  });
}
