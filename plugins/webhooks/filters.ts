// An endpoint's resource filters (`filters: { tokenAddress: [...], chainId: [...], systemAddress: [...] }`): an event
// reaches the endpoint only when, for every key the endpoint filters on, the event names that resource and it is one
// of the listed values. An event that names no token is not "of" the filtered token: it does not reach the endpoint.
import { z } from "@hono/zod-openapi";
import { getAddress } from "viem";

const Address = z
  .string()
  .regex(/^0x[a-fA-F0-9]{40}$/)
  .transform((a) => getAddress(a));
const List = <T extends z.ZodTypeAny>(item: T) => z.array(item).min(1).max(100);

export const EndpointFiltersSchema = z
  .object({
    tokenAddress: List(Address)
      .optional()
      .openapi({ description: "Only events of these tokens (the payload's tokenAddress or assetAddress)" }),
    chainId: List(z.number().int().min(1).max(9007199254740991))
      .optional()
      .openapi({ description: "Only events of these chains" }),
    systemAddress: List(Address).optional().openapi({ description: "Only events of these systems" }),
  })
  .strict()
  .openapi("WebhookEndpointFilters", {
    description:
      "Resource filters: an event is delivered only when it names, for every key given, one of the listed values " +
      "(an event naming no token does not pass a tokenAddress filter). `{}`: every event of the subscribed types.",
    example: { tokenAddress: ["0x5FbDB2315678afecb367f032d93F642f64180aa3"] },
  });
export type EndpointFilters = z.output<typeof EndpointFiltersSchema>;

export type FilterKey = keyof EndpointFilters;

/** What an event names of each filterable resource (addresses lower-cased), from its chain, payload and references. */
export function resourceOf(event: {
  chainId: number | null;
  payload: unknown;
  related: Record<string, string>;
}): Partial<Record<FilterKey, string | number>> {
  const payload = (typeof event.payload === "object" && event.payload !== null ? event.payload : {}) as Record<
    string,
    unknown
  >;
  const text = (value: unknown) => (typeof value === "string" ? value.toLowerCase() : undefined);
  const chainId = event.chainId ?? (typeof payload.chainId === "number" ? payload.chainId : undefined);
  return {
    tokenAddress: text(payload.tokenAddress) ?? text(payload.assetAddress) ?? text(event.related.idxr_token),
    chainId,
    systemAddress: text(payload.systemAddress),
  };
}

/** Filters as stored or given (addresses in any case). */
type Filters = { readonly [K in FilterKey]?: readonly (string | number)[] };

/** Whether an event naming `resource` passes the endpoint's filters. */
export function matchesFilters(filters: Filters, resource: Partial<Record<FilterKey, string | number>>) {
  return (Object.keys(filters) as FilterKey[]).every((key) => {
    const allowed = filters[key];
    if (allowed === undefined) return true;
    const named = resource[key];
    if (named === undefined) return false;
    return allowed.some((value) => (typeof value === "string" ? value.toLowerCase() === named : value === named));
  });
}

/** Whether an outbox event (its payload and references as JSON text) passes an endpoint's filters. */
export const passesFilters = (row: {
  filters: Filters;
  chainId: number | null;
  payloadJson: string;
  relatedJson: string;
}) =>
  matchesFilters(
    row.filters,
    resourceOf({ chainId: row.chainId, payload: JSON.parse(row.payloadJson), related: JSON.parse(row.relatedJson) }),
  );
