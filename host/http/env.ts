// What every request carries through the host's middleware.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ShortCache } from "../cache/short-cache.ts";

export interface Principal {
  /** How the caller authenticated: an API key (inherits its user's roles) or a person's session cookie. */
  kind: "api-key" | "session";
  organizationId: string;
  userId: string;
  /** The user's roles in the active organisation. */
  roles: string[];
  /** API keys may be read-only; sessions are read-write. */
  scope: "read" | "read-write";
  apiKeyId?: string;
  sessionId?: string;
}

/** The validated context headers (X-Executor, X-Participant). */
export interface RequestContext {
  executor: "eoa" | "smart-wallet" | undefined;
  participantId: string;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    principal: Principal;
    requestContext: RequestContext;
    /** The organisations' chain rows, cached for a few seconds (host/chain/request-chain.ts); absent in tests of parts. */
    chainRows?: ShortCache<unknown>;
  };
}

export type App = OpenAPIHono<AppEnv>;
