// The one shape of a collection route's declaration: GET, its permission, the collection's documented query
// parameters (the engine validates them with the COLLECTION_* codes) and the collection envelope.
import { createRoute, z } from "@hono/zod-openapi";
import type { Permission } from "../auth/permissions.ts";
import { requirePermission } from "../auth/require-permission.ts";
import { errorResponses } from "../http/schemas.ts";
import { collectionQueryParameters, collectionResponseSchema } from "./openapi.ts";
import type { CollectionSpec } from "./spec.ts";

export function collectionRoute<Params extends z.ZodObject = z.ZodObject<Record<never, never>>>(def: {
  path: string;
  tags: string[];
  summary: string;
  description?: string;
  permission: Permission;
  collection: CollectionSpec;
  item: z.ZodTypeAny;
  /** What the 200 answer lists, e.g. "The holders; facet isFrozen". */
  listed: string;
  params?: Params;
}) {
  return createRoute({
    method: "get",
    path: def.path,
    tags: def.tags,
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    middleware: [requirePermission(def.permission)],
    request: {
      params: (def.params ?? z.object({})) as Params,
      query: collectionQueryParameters(def.collection),
    },
    responses: {
      200: {
        description: def.listed,
        content: { "application/json": { schema: collectionResponseSchema(def.item, def.collection.facetFields) } },
      },
      ...errorResponses,
    },
  });
}
