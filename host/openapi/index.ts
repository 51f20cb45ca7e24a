// Mounts the API documentation: the v2 and v1 OpenAPI documents and their offline Swagger UI explorers.
import type { App } from "../http/env.ts";
import { buildApiDocuments } from "./api-documents.ts";
import { type ApiVersionId, DOCUMENTED_API_VERSIONS } from "./api-versions.ts";
import { registerErrorSchemas } from "./error-schemas.ts";
import { mountExplorerAssets } from "./explorer-assets.ts";
import { renderExplorerPage } from "./explorer-page.ts";
import { type PrecompressedBody, precompress, sendPrecompressed } from "./precompressed.ts";
import { API_ROOT_PATH } from "./public-paths.ts";
import { registerSecuritySchemes } from "./security-schemes.ts";
import type { WebhookEvents } from "./webhook-schemas.ts";

export { isPublicDocPath } from "./public-paths.ts";

/** The documents change only with a deploy; clients revalidate with the ETag after five minutes. */
const SPEC_CACHE_CONTROL = "public, max-age=300";
const PAGE_CACHE_CONTROL = "no-cache";

/** Memoises a builder; a builder that throws is retried on the next call. */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= build();
    return value;
  };
}

/**
 * Registers the documents' security schemes and error envelopes, then the public documentation routes. The documents
 * are generated on the first request (when every plugin has registered its routes) and kept precompressed in memory.
 * `webhookEvents`: the composed event types, for the v2 document's `webhooks` section.
 */
export function mountApiDocs(app: App, webhookEvents: WebhookEvents) {
  registerSecuritySchemes(app.openAPIRegistry);
  registerErrorSchemas(app.openAPIRegistry);

  const specs = once(() => {
    const documents = buildApiDocuments(app, webhookEvents);
    const entries = DOCUMENTED_API_VERSIONS.map((version) => [
      version.id,
      precompress(JSON.stringify(documents[version.id]), { contentType: "application/json; charset=utf-8" }),
    ]);
    return Object.fromEntries(entries) as Record<ApiVersionId, PrecompressedBody>;
  });

  for (const version of DOCUMENTED_API_VERSIONS) {
    const page = once(() => precompress(renderExplorerPage(version), { contentType: "text/html; charset=utf-8" }));
    app.get(version.specPath, (c) => sendPrecompressed(c, specs()[version.id], SPEC_CACHE_CONTROL));
    app.get(version.explorerPath, (c) => sendPrecompressed(c, page(), PAGE_CACHE_CONTROL));
  }
  mountExplorerAssets(app);
  app.get(API_ROOT_PATH, (c) => c.redirect("/api/v2", 301));
}
