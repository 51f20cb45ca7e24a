// What every request carries through the host's middleware.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { IndexedReads } from "../cache/indexed-reads.ts";
import type { ShortCache } from "../cache/short-cache.ts";
import type { IndexGate } from "../index-gate.ts";

export interface Principal {
  /** How the caller authenticated: an API key (inherits its user's roles) or a person's session cookie. */
  kind: "api-key" | "session";
  organizationId: string;
  userId: string;
  /** The user's roles in the active organisation. */
  roles: string[];
  /** The user's platform-level roles (host/auth/platform-roles.ts), whatever the organisation. */
  platformRoles: string[];
  /** API keys may be read-only; sessions are read-write. */
  scope: "read" | "read-write";
  apiKeyId?: string;
  /** The API key's expiry (null: none); a key never creates one that outlives it. */
  apiKeyExpiresAt?: Date | null;
  sessionId?: string;
}

/** The validated context headers (X-Executor, X-Participant). */
export interface RequestContext {
  executor: "eoa" | "smart-wallet" | undefined;
  /** The executor came from the organisation's policy, not X-Executor: a body naming an EOA wallet overrides it. */
  executorFromPolicy?: boolean;
  participantId: string;
}

export interface AppEnv {
  /** Set on the REST request an /api/rpc procedure makes through app.fetch (host/rpc/transport.ts). */
  Bindings: { rpcInner?: true };
  Variables: {
    requestId: string;
    principal: Principal;
    requestContext: RequestContext;
    /** The organisations' chain rows, cached for a few seconds (host/chain/request-chain.ts); absent in tests of parts. */
    chainRows?: ShortCache<unknown>;
    /** Participants by id, cached like chainRows and per index version (host/http/find-participant.ts). */
    participantRows?: ShortCache<unknown>;
    /** Each organisation's executor policy and primary wallet, cached like chainRows (every write reads them). */
    organizationRows?: ShortCache<unknown>;
    /** Results computed from the index, kept per index version (host/cache/indexed-reads.ts); absent: none kept. */
    indexedReads?: IndexedReads;
    /** The index version this request reads at, read on first use. */
    indexVersion?: Promise<string>;
    /** The chain the request works on, once requestChain resolved it: results kept from the index are per chain. */
    requestChainId?: number;
    /** Whether the request chain's index can be read yet (host/index-gate.ts); absent in tests of parts. */
    indexGate?: IndexGate;
  };
}

export type App = OpenAPIHono<AppEnv>;
