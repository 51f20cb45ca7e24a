// How the participant directory is listed: kind filter, search over name and address, and the route's own
// sortBy/sortDirection (documented for this route instead of sort).
import { z } from "@hono/zod-openapi";
import { type CollectionQuery, defineCollection } from "../../host/collections/index.ts";
import { PARTICIPANT_KINDS } from "../../host/http/participant-relation.ts";
import { AddressSchema } from "../../host/http/schemas.ts";
import { PARTICIPANT_PURPOSES } from "./participants-query.ts";

export const PARTICIPANT_SORTS = ["displayName", "address", "kind"] as const;

export const PARTICIPANT_COLLECTION = defineCollection({
  fields: {
    displayName: { column: "displayName", type: "text", sortable: true, filter: false },
    address: { column: "address", type: "text", sortable: true, filter: false },
    kind: {
      column: "kind",
      type: "enum",
      values: PARTICIPANT_KINDS,
      sortable: true,
      filter: { operators: ["eq", "inArray"] },
    },
  },
  search: ["displayName", "address"],
  defaultSort: "displayName",
  tiebreaker: "id",
  allowFlatKeys: ["sortBy", "sortDirection"],
});

export const ELIGIBILITY_ACTIONS = ["transfer", "mint", "burn"] as const;

/** The route's own parameters; the collection engine reads filter[..] and page[..]. */
export const ParticipantListQuerySchema = z.object({
  purpose: z.enum(PARTICIPANT_PURPOSES).openapi({ description: "Which address each participant resolves to" }),
  sortBy: z.enum(PARTICIPANT_SORTS).optional().openapi({ description: "Default displayName" }),
  sortDirection: z.enum(["asc", "desc"]).optional().openapi({ description: "Default asc" }),
  "eligibleForToken[tokenAddress]": AddressSchema.optional().openapi({
    description: "Hide participants that could not take part in the action on this token",
  }),
  "eligibleForToken[action]": z.enum(ELIGIBILITY_ACTIONS).optional().openapi({ description: "Default transfer" }),
  "eligibleForToken[reveal]": z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "true: list ineligible participants too, each with its eligible flag" }),
});
export type ParticipantListQuery = z.infer<typeof ParticipantListQuerySchema>;

/** sortBy and sortDirection (this route's documented keys) take the place of sort. */
export function withRouteSort(query: CollectionQuery, params: ParticipantListQuery): CollectionQuery {
  if (!params.sortBy && !params.sortDirection) return query;
  return {
    ...query,
    sort: { field: params.sortBy ?? query.sort.field, direction: params.sortDirection ?? "asc" },
  };
}

/**
 * The page of participants judged for eligibility: with `reveal` all of them (each with its flag), else only the
 * eligible ones and how many were hidden (`hidden` is undefined when revealing).
 */
export function eligibilityPage<T extends { eligible: boolean }>(
  judged: T[],
  reveal: boolean,
  page: { offset: number; limit: number },
): { rows: T[]; total: number; hidden: number | undefined } {
  const shown = reveal ? judged : judged.filter((row) => row.eligible);
  return {
    rows: shown.slice(page.offset, page.offset + page.limit),
    total: shown.length,
    hidden: reveal ? undefined : judged.length - shown.length,
  };
}

export const ParticipantSchema = z
  .object({
    id: z.string(),
    kind: z.enum(PARTICIPANT_KINDS),
    address: z.string().nullable().openapi({ description: "The resolved address for the requested purpose" }),
    displayName: z.string(),
    eligible: z
      .boolean()
      .optional()
      .openapi({ description: "With eligibleForToken: whether the participant may take part in the action" }),
  })
  .openapi("Participant");
