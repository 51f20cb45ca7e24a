// The operations of a generated document and what their declarations say about them (a write, a chain write, public,
// a collection), for the steps that complete the document from those declarations.
import type { OpenApiDocument } from "./api-documents.ts";

type PathItem = NonNullable<OpenApiDocument["paths"]>[string];
export type DocumentOperation = NonNullable<PathItem["get"]>;

export const OPERATION_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type OperationMethod = (typeof OPERATION_METHODS)[number];

const WRITE_METHODS = new Set<string>(["put", "post", "delete", "patch"]);
const ACCEPTED_MUTATION_REF = "#/components/schemas/AcceptedMutation";

/** Every operation of the paths, with its path and method. */
export function* operationsOf(
  paths: Record<string, PathItem>,
): Generator<{ path: string; method: OperationMethod; operation: DocumentOperation }> {
  for (const [path, item] of Object.entries(paths)) {
    for (const method of OPERATION_METHODS) {
      const operation = item[method];
      if (operation) yield { path, method, operation };
    }
  }
}

export function isWrite(method: OperationMethod): boolean {
  return WRITE_METHODS.has(method);
}

/** A chain write answers 202 with the accepted-mutation envelope (host/http/schemas.ts mutationResponses). */
export function isChainWrite(operation: DocumentOperation): boolean {
  const accepted = operation.responses?.["202"] as { content?: Record<string, { schema?: { $ref?: string } }> };
  return accepted?.content?.["application/json"]?.schema?.$ref === ACCEPTED_MUTATION_REF;
}

/** An operation that needs no credentials (its own empty security requirement). */
export function isPublic(operation: DocumentOperation): boolean {
  return Array.isArray(operation.security) && operation.security.length === 0;
}

/** The value for the operation's kind: a chain write, another authenticated write, or any other operation. */
export function byOperationKind<T>(
  method: OperationMethod,
  operation: DocumentOperation,
  values: { chainWrite: T; authenticatedWrite: T; other: T },
): T {
  if (isChainWrite(operation)) return values.chainWrite;
  return isWrite(method) && !isPublic(operation) ? values.authenticatedWrite : values.other;
}

type Parameter = { name?: string; in?: string; schema?: { enum?: unknown[] } };

/** The query parameters of a collection route (host/collections): its filter fields and sort values. */
export function collectionQuery(operation: DocumentOperation) {
  const query = ((operation.parameters ?? []) as Parameter[]).filter((p) => p.in === "query");
  if (!query.some((p) => p.name === "page[limit]")) return undefined;
  const filters = query.flatMap((p) => /^filter\[([^\]]+)\]$/.exec(p.name ?? "")?.[1] ?? []).filter((f) => f !== "q");
  const sort =
    query
      .find((p) => p.name === "sort")
      ?.schema?.enum?.map(String)
      .filter((v) => !v.startsWith("-")) ?? [];
  return { filters, sort, search: query.some((p) => p.name === "filter[q]") };
}
