// Every operation's description, completed from what its route declares: its own words (or its summary), what a
// collection takes (paging, sort, filters, search, facets), how a chain write answers, and who may call it.
import { collectionQuery, type DocumentOperation, isChainWrite, isPublic } from "./document-operations.ts";
import { PERMISSION_EXTENSION } from "./route-permissions.ts";

const CHAIN_WRITE =
  "A chain write: it answers 202 Accepted at once with `statusUrl` (also in `Location`); poll it until a terminal " +
  "state and do not resubmit. `Prefer: wait=N` (5 to 99 s) waits and answers 200 with the completed result. Send an " +
  "`Idempotency-Key` to retry safely; the response echoes the effective key. Refusals known before anything is " +
  "queued answer 4xx (422 for a domain rule, e.g. COMPLIANCE_CHECK_FAILED).";

const sentence = (text: string) => {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};

const list = (names: string[]) => names.map((name) => `\`${name}\``).join(", ");

type Schema = { properties?: Record<string, Schema>; $ref?: string };

/** The facet fields a collection's 200 answer declares (host/collections collectionResponseSchema). */
function facetsOf(operation: DocumentOperation): string[] {
  const ok = operation.responses?.["200"] as { content?: Record<string, { schema?: Schema }> } | undefined;
  const facets = ok?.content?.["application/json"]?.schema?.properties?.meta?.properties?.facets;
  return Object.keys(facets?.properties ?? {});
}

function collectionParagraph(operation: DocumentOperation): string | undefined {
  const query = collectionQuery(operation);
  if (!query) return undefined;
  const parts = ["A collection: page with `page[offset]` and `page[limit]` (`links.next` is null on the last page)"];
  if (query.sort.length) parts.push(`sort by one of ${list(query.sort)} (prefix \`-\` for descending)`);
  if (query.filters.length) parts.push(`filter with \`filter[<field>]\` on ${list(query.filters)}`);
  if (query.search) parts.push("search with `filter[q]`");
  const facets = facetsOf(operation);
  if (facets.length) parts.push(`\`meta.facets\` counts the values of ${list(facets)}`);
  return `${parts.join("; ")}.`;
}

function accessSentence(operation: DocumentOperation): string | undefined {
  if (isPublic(operation)) return "Public: no credentials needed.";
  const permission = (operation as Record<string, unknown>)[PERMISSION_EXTENSION];
  return typeof permission === "string" ? `Permission: \`${permission}\`.` : undefined;
}

/** Sets the operation's description: never empty, its own words first. */
export function withDescription(operation: DocumentOperation): void {
  const own = operation.description?.trim();
  const paragraphs = [
    own ? sentence(own) : sentence(operation.summary ?? "An operation of the API"),
    own ? undefined : collectionParagraph(operation),
    isChainWrite(operation) ? CHAIN_WRITE : undefined,
    accessSentence(operation),
  ];
  operation.description = paragraphs.filter(Boolean).join("\n\n");
}
