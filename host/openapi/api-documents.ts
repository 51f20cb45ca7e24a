// Builds the v2 and v1 OpenAPI 3.1 documents from the routes registered on the app, split by path; the v2 one also
// describes the webhook deliveries of the declared event types.
import { errorFormFor } from "../errors/render.ts";
import type { App } from "../http/env.ts";
import { type ApiVersionId, DOCUMENTED_API_VERSIONS, type DocumentedApiVersion } from "./api-versions.ts";
import { OPERATION_METHODS, operationsOf } from "./document-operations.ts";
import { errorResponseComponents, withSharedErrorResponses } from "./error-responses.ts";
import { ERROR_SCHEMA_NAMES } from "./error-schemas.ts";
import { withDescription } from "./operation-descriptions.ts";
import { type Components, pruneComponents } from "./prune-components.ts";
import { API_SECURITY } from "./security-schemes.ts";
import { SHARED_HEADERS, withSharedHeaders } from "./shared-headers.ts";
import type { WebhookEvents } from "./webhook-schemas.ts";
import { type WebhooksSection, webhooksSection } from "./webhooks-section.ts";

export type OpenApiDocument = ReturnType<App["getOpenAPI31Document"]>;
type PathItem = NonNullable<OpenApiDocument["paths"]>[string];

/** Operations that declare no error response get a `default` one in their path's error envelope. */
function withErrorResponses(routePath: string, item: PathItem): PathItem {
  const described = structuredClone(item);
  const form = errorFormFor(routePath);
  const schemaName = ERROR_SCHEMA_NAMES[form];
  for (const method of OPERATION_METHODS) {
    const operation = described[method];
    if (!operation) continue;
    operation.responses ??= {};
    const responses = operation.responses;
    if (Object.keys(responses).some((status) => status === "default" || /^[45]/.test(status))) continue;
    responses.default = {
      description: `Error (Form ${form} envelope)`,
      content: { "application/json": { schema: { $ref: `#/components/schemas/${schemaName}` } } },
    };
  }
  return described;
}

/**
 * The contract steps (a document that declares `contract`): each operation's shared headers, its error responses as
 * references to the shared ones, and a description; their components join the document's.
 */
function asContract(paths: Record<string, PathItem>): Components {
  for (const { path, method, operation } of operationsOf(paths)) {
    withSharedHeaders(method, operation);
    if (errorFormFor(path) === "A") withSharedErrorResponses(method, operation);
    withDescription(operation);
  }
  return { parameters: { ...SHARED_HEADERS }, responses: errorResponseComponents() };
}

/** The webhook schemas join the routes' components; a name taken by a route's schema stops the build. */
function withWebhookSchemas(components: Components, section: WebhooksSection): Components {
  const schemas = { ...components.schemas };
  for (const [name, schema] of Object.entries(section.schemas)) {
    if (name in schemas) throw new Error(`The webhook schema "${name}" has the name of a route's component schema`);
    schemas[name] = schema;
  }
  return { ...components, schemas };
}

function documentFor(full: OpenApiDocument, version: DocumentedApiVersion, events: WebhookEvents): OpenApiDocument {
  const paths = Object.fromEntries(
    Object.entries(full.paths ?? {})
      .filter(([routePath]) => version.covers(routePath))
      .map(([routePath, item]) => [routePath, withErrorResponses(routePath, item)]),
  );
  const contract = version.contract ? asContract(paths) : {};
  let components = pruneComponents({ ...(full.components ?? {}), ...contract } as Components, paths, [
    "securitySchemes",
  ]);
  const section = version.webhooks && events.size > 0 ? webhooksSection(events) : undefined;
  if (section) components = withWebhookSchemas(components, section);
  return {
    openapi: full.openapi,
    info: { title: version.title, version: version.version, description: version.description },
    // Relative: the API is served where its document is.
    servers: [{ url: "/", description: "This platform" }],
    security: API_SECURITY,
    paths,
    ...(section ? { webhooks: section.webhooks as OpenApiDocument["webhooks"] } : {}),
    components,
  };
}

/**
 * Generates the whole registry once and splits it: each document holds only its own paths and their components.
 * `events`: the composed webhook event types, described in the documents that take webhooks.
 */
export function buildApiDocuments(app: App, events: WebhookEvents = new Map()): Record<ApiVersionId, OpenApiDocument> {
  const full = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "all routes", version: "0" } });
  return Object.fromEntries(
    DOCUMENTED_API_VERSIONS.map((version) => [version.id, documentFor(full, version, events)]),
  ) as Record<ApiVersionId, OpenApiDocument>;
}
