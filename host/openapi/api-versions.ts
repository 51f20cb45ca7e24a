// The documented API versions: which routes each document covers and where its document and explorer are served.
import { isRpcPath } from "../rpc/path.ts";

export type ApiVersionId = "v2" | "v1";

export interface DocumentedApiVersion {
  id: ApiVersionId;
  title: string;
  version: string;
  description: string;
  specPath: string;
  explorerPath: string;
  /** Whether a registered route path belongs in this version's document. */
  covers(routePath: string): boolean;
  /** Whether the document describes the webhook deliveries (its `webhooks` section). */
  webhooks?: boolean;
  /**
   * Whether the document is completed as a contract for generators: shared headers and error responses as components,
   * every operation described (host/openapi/api-documents.ts).
   */
  contract?: boolean;
}

export const API_V2: DocumentedApiVersion = {
  id: "v2",
  title: "Asset Platform API",
  version: "2.0.0",
  description:
    "Organisation-scoped API for tokenised assets. Authenticate with an API key in `X-Api-Key` (or a dashboard " +
    "session cookie). Errors use the Form A envelope (`code`, `status`, `message`, `data`). Browser sessions may call " +
    "every operation as a procedure at `/api/rpc` (its operationId; see the `rpc` tag).",
  specPath: "/api/v2/spec.json",
  explorerPath: "/api/v2",
  // The RPC transport (/api/rpc) serves v2's operations: it is documented with them.
  covers: (routePath) => routePath.startsWith("/api/v2/") || isRpcPath(routePath),
  webhooks: true,
  contract: true,
};

export const API_V1: DocumentedApiVersion = {
  id: "v1",
  title: "Asset Platform API (v1, legacy)",
  version: "1.0.0",
  description:
    "The previous, unversioned routes under `/api/`, kept for existing integrations; new integrations should use " +
    "`/api/v2`. Errors on these routes use the Form B envelope (`{ error: { id, category, status, ... } }`).",
  specPath: "/api/v1/spec.json",
  explorerPath: "/api/v1",
  covers: (routePath) => routePath.startsWith("/api/") && !API_V2.covers(routePath),
};

/** Newest first: the explorer's version links follow this order. */
export const DOCUMENTED_API_VERSIONS: readonly DocumentedApiVersion[] = [API_V2, API_V1];
