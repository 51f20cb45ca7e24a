// Documents a collection's query parameters for a route's `request.query`, without validating them:
// parseCollectionQuery does that, with the spec's COLLECTION_* codes (a zod failure would only say BAD_REQUEST).
import { z } from "@hono/zod-openapi";
import { PAGE_LIMIT, PAGE_OFFSET } from "./parse.ts";
import { type CollectionSpec, SEARCH_KEY } from "./spec.ts";

/** Accepts anything (one value or a repeated key); the metadata is what the OpenAPI document shows. */
const documented = (schema: Record<string, unknown>) => z.unknown().optional().openapi(schema);

export function collectionQueryParameters(spec: CollectionSpec) {
  const { field, direction } = spec.defaultSort;
  const shape: Record<string, z.ZodType> = {
    sort: documented({
      type: "string",
      enum: spec.sortableFields.flatMap((name) => [name, `-${name}`]),
      default: direction === "desc" ? `-${field}` : field,
      description: "One field; prefix - for descending.",
    }),
    [PAGE_OFFSET.key]: documented({
      type: "integer",
      minimum: PAGE_OFFSET.min,
      maximum: PAGE_OFFSET.max,
      default: PAGE_OFFSET.default,
    }),
    [PAGE_LIMIT.key]: documented({
      type: "integer",
      minimum: PAGE_LIMIT.min,
      maximum: PAGE_LIMIT.max,
      default: PAGE_LIMIT.default,
    }),
  };
  if (spec.search.length > 0) {
    shape[`filter[${SEARCH_KEY}]`] = documented({
      type: "string",
      description: `Case-insensitive search in ${spec.search.map((f) => f.name).join(", ")}.`,
    });
  }
  for (const name of spec.filterableFields) {
    const declared = spec.fields.get(name)!;
    shape[`filter[${name}]`] = documented({
      type: "string",
      ...(declared.values ? { enum: [...declared.values] } : {}),
      description:
        `${declared.type} field; shorthand for ${declared.defaultOperator}. Also filter[${name}][<operator>] with ` +
        `${declared.operators.join(", ")} (inArray, notInArray, between: comma-separated).`,
    });
  }
  return z.looseObject(shape);
}

const FacetBucketSchema = z.object({
  // Typed loosely because collection() takes facet values as unknown; documented as what the engine produces.
  value: z.unknown().openapi({ type: ["string", "number", "boolean", "null"] }),
  count: z.number().int(),
});

/** meta.facets: the buckets of each facet field the collection declares (any name when none is given). */
function facetsSchema(facetFields: readonly string[]) {
  if (facetFields.length === 0) return z.record(z.string(), z.array(FacetBucketSchema)).optional();
  return z
    .object(Object.fromEntries(facetFields.map((name) => [name, z.array(FacetBucketSchema)])))
    .partial()
    .optional()
    .openapi({ description: `Counts per value of ${facetFields.join(", ")}` });
}

/**
 * The `collection()` envelope around `item`: data, meta.total, meta.facets when the route declares facets (typed by
 * `facetFields`), links.
 */
export function collectionResponseSchema<Item extends z.ZodType>(item: Item, facetFields: readonly string[] = []) {
  return z.object({
    data: z.array(item),
    meta: z.object({ total: z.number().int(), facets: facetsSchema(facetFields) }),
    links: z.object({
      self: z.string(),
      first: z.string(),
      prev: z.string().nullable(),
      next: z.string().nullable(),
      last: z.string(),
    }),
  });
}
