// The system's claim policy: which issuers it trusts for which topics, and which claim topics (schemes) exist.
import { createRoute } from "@hono/zod-openapi";
import { type Address, encodeFunctionData, getAddress } from "viem";
import { TopicSchemeRegistryAbi } from "../../abis/TopicSchemeRegistry.ts";
import { TrustedIssuersRegistryAbi } from "../../abis/TrustedIssuersRegistry.ts";
import { requirePermission } from "../../host/auth/require-permission.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import type { App } from "../../host/http/env.ts";
import { jsonBody, mutationResponses } from "../../host/http/schemas.ts";
import { shortAddress } from "../../host/mutations/describe.ts";
import { submitSystemWrite } from "../../host/mutations/system-write.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { topicIdOf } from "./claim-signing.ts";
import { requireClaimIssuer } from "./prechecks.ts";
import {
  AddTrustedIssuerBodySchema,
  IssuerAddressParams,
  RegisterTopicSchemeBodySchema,
  SignerBodySchema,
  TopicNameParams,
  UpdateTopicSchemeBodySchema,
  UpdateTrustedIssuerBodySchema,
} from "./write-schemas.ts";

const policy = {
  tags: ["identity"],
  middleware: [requirePermission("claimPolicy:manage")],
  responses: mutationResponses,
};

const addTrustedIssuer = createRoute({
  ...policy,
  method: "post",
  path: "/api/v2/system/trusted-issuers",
  summary: "Trust a claim issuer identity for claim topics (by default the signing wallet's claim issuer)",
  request: { body: jsonBody(AddTrustedIssuerBodySchema) },
});
const updateTrustedIssuer = createRoute({
  ...policy,
  method: "put",
  path: "/api/v2/system/trusted-issuers/{issuerAddress}",
  summary: "Replace the claim topics a trusted issuer is trusted for",
  request: { params: IssuerAddressParams, body: jsonBody(UpdateTrustedIssuerBodySchema) },
});
const removeTrustedIssuer = createRoute({
  ...policy,
  method: "delete",
  path: "/api/v2/system/trusted-issuers/{issuerAddress}",
  summary: "Stop trusting a claim issuer (its claims count as untrusted)",
  request: { params: IssuerAddressParams, body: jsonBody(SignerBodySchema, false) },
});
const registerTopicScheme = createRoute({
  ...policy,
  method: "post",
  path: "/api/v2/system/topic-schemes",
  summary: "Register a claim topic: its name (topic id = uint256(keccak256(name))) and its data signature",
  request: { body: jsonBody(RegisterTopicSchemeBodySchema) },
});
const updateTopicScheme = createRoute({
  ...policy,
  method: "put",
  path: "/api/v2/system/topic-schemes/{name}",
  summary: "Change a claim topic's data signature",
  request: { params: TopicNameParams, body: jsonBody(UpdateTopicSchemeBodySchema) },
});
const removeTopicScheme = createRoute({
  ...policy,
  method: "delete",
  path: "/api/v2/system/topic-schemes/{name}",
  summary: "Remove a claim topic",
  request: { params: TopicNameParams, body: jsonBody(SignerBodySchema, false) },
});

const issuersRegistry = (chain: RequestChain) => getAddress(chain.contracts.trustedIssuersRegistry);
const topicsRegistry = (chain: RequestChain) => getAddress(chain.contracts.topicSchemeRegistry);
/** The topics a write names, as every answer shows a topic: its id (decimal) and its name beside it. */
const topicRefsOf = (names: string[]) => names.map((name) => ({ topicId: topicIdOf(name).toString(), name }));

export function claimPolicyRoutes(app: App, ctx: PluginContext) {
  app.openapi(addTrustedIssuer, async (c) => {
    const body = c.req.valid("json");
    return submitSystemWrite(c, ctx, body, async (chain, signer) => {
      const issuer: Address = body.issuerAddress
        ? getAddress(body.issuerAddress)
        : await requireClaimIssuer(chain, signer);
      return {
        kind: "trustedIssuer.add",
        description: `Trust ${shortAddress(issuer)} for ${body.claimTopics.join(", ")}`,
        resultContext: { topics: topicRefsOf(body.claimTopics) },
        to: issuersRegistry(chain),
        data: encodeFunctionData({
          abi: TrustedIssuersRegistryAbi,
          functionName: "addTrustedIssuer",
          args: [issuer, body.claimTopics.map(topicIdOf)],
        }),
      };
    });
  });

  app.openapi(updateTrustedIssuer, async (c) => {
    const body = c.req.valid("json");
    const issuer = getAddress(c.req.valid("param").issuerAddress);
    return submitSystemWrite(c, ctx, body, (chain) => ({
      kind: "trustedIssuer.update",
      description: `Trust ${shortAddress(issuer)} for ${body.claimTopics.join(", ")} only`,
      resultContext: { topics: topicRefsOf(body.claimTopics) },
      to: issuersRegistry(chain),
      data: encodeFunctionData({
        abi: TrustedIssuersRegistryAbi,
        functionName: "updateIssuerClaimTopics",
        args: [issuer, body.claimTopics.map(topicIdOf)],
      }),
    }));
  });

  app.openapi(removeTrustedIssuer, async (c) => {
    const issuer = getAddress(c.req.valid("param").issuerAddress);
    return submitSystemWrite(c, ctx, c.req.valid("json"), (chain) => ({
      kind: "trustedIssuer.remove",
      description: `Stop trusting ${shortAddress(issuer)}`,
      to: issuersRegistry(chain),
      data: encodeFunctionData({ abi: TrustedIssuersRegistryAbi, functionName: "removeTrustedIssuer", args: [issuer] }),
    }));
  });

  app.openapi(registerTopicScheme, async (c) => {
    const body = c.req.valid("json");
    return submitSystemWrite(c, ctx, body, (chain) => ({
      kind: "topicScheme.register",
      description: `Register the claim topic ${body.name} (${body.signature})`,
      to: topicsRegistry(chain),
      data: encodeFunctionData({
        abi: TopicSchemeRegistryAbi,
        functionName: "registerTopicScheme",
        args: [body.name, body.signature],
      }),
    }));
  });

  app.openapi(updateTopicScheme, async (c) => {
    const body = c.req.valid("json");
    const { name } = c.req.valid("param");
    return submitSystemWrite(c, ctx, body, (chain) => ({
      kind: "topicScheme.update",
      description: `Change the claim topic ${name} to (${body.signature})`,
      to: topicsRegistry(chain),
      data: encodeFunctionData({
        abi: TopicSchemeRegistryAbi,
        functionName: "updateTopicScheme",
        args: [name, body.signature],
      }),
    }));
  });

  app.openapi(removeTopicScheme, async (c) => {
    const { name } = c.req.valid("param");
    return submitSystemWrite(c, ctx, c.req.valid("json"), (chain) => ({
      kind: "topicScheme.remove",
      description: `Remove the claim topic ${name}`,
      to: topicsRegistry(chain),
      data: encodeFunctionData({ abi: TopicSchemeRegistryAbi, functionName: "removeTopicScheme", args: [name] }),
    }));
  });
}
