// The system's contract catalogue: the directory (with its type catalogues) and the addon factories, from the index.
import { createRoute } from "@hono/zod-openapi";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { collectionRoute, systemCollection } from "../../host/collections/index.ts";
import type { App } from "../../host/http/env.ts";
import { single } from "../../host/http/envelopes.ts";
import { errorResponses, jsonResponse, singleResponses } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { systemAddonFactories, systemAddonFactory, toAddonFactoryListItem } from "./addon-factories-query.ts";
import { ADDON_FACTORY_COLLECTION } from "./collections.ts";
import { readDirectory } from "./directory-query.ts";
import {
  AddonFactoryListItemSchema,
  AddonFactoryParams,
  AddonFactorySchema,
  DirectoryQuerySchema,
  DirectoryResponseSchema,
} from "./schemas.ts";

const TAGS = ["system"];
const PERMISSION = "system:read";

const getDirectory = createRoute({
  method: "get",
  path: "/api/v2/system/directory",
  tags: TAGS,
  summary:
    "The system's contract catalogue: implementations, factories and the token, compliance module and addon types",
  description: "data is null when the index holds no directory at that address for the organisation's system.",
  middleware: [requirePermission(PERMISSION)],
  request: { query: DirectoryQuerySchema },
  responses: { 200: jsonResponse(DirectoryResponseSchema, "The directory, or null"), ...errorResponses },
});

const listAddonFactories = collectionRoute({
  path: "/api/v2/system/addon-factories",
  tags: TAGS,
  summary: "List the system's addon factories, by name",
  permission: PERMISSION,
  collection: ADDON_FACTORY_COLLECTION,
  item: AddonFactoryListItemSchema,
  listed: "The addon factories; facets typeId, kind",
});

const getAddonFactory = createRoute({
  method: "get",
  path: "/api/v2/system/addon-factories/{factoryAddress}",
  tags: TAGS,
  summary: "An addon factory of the system",
  description:
    "An address the system's addon registry did not create (or removed) answers 404 ADDON_FACTORY_NOT_FOUND.",
  middleware: [requirePermission(PERMISSION)],
  request: { params: AddonFactoryParams },
  responses: singleResponses(AddonFactorySchema, "The addon factory"),
});

export function directoryRoutes(app: App, ctx: PluginContext) {
  app.openapi(getDirectory, async (c) => {
    const chain = await requestChain(c, ctx);
    const directory = c.req.valid("query").contract ?? chain.contracts.directory;
    return c.json(single(c, await readDirectory(chain.ledger, chain.systemAddress, directory)), 200);
  });

  app.openapi(listAddonFactories, async (c) => {
    const page = await systemCollection(c, ctx, ADDON_FACTORY_COLLECTION, systemAddonFactories, (rows) =>
      rows.map(toAddonFactoryListItem),
    );
    return c.json(page, 200);
  });

  app.openapi(getAddonFactory, async (c) => {
    const { factoryAddress } = c.req.valid("param");
    const { systemAddress, ledger } = await requestChain(c, ctx);
    return c.json(single(c, await systemAddonFactory(ledger, systemAddress, factoryAddress)), 200);
  });
}
