// The chain a request works on (X-Chain-Id, else the organisation's default), the organisation's system there, the
// chain's node (its client and raw calls ended by the request's deadline: host/chain/chain-unavailable.ts) and the
// index as that chain sees it (once caught up after a start: host/index-gate.ts).
import type { Context } from "hono";
import type { Address, PublicClient } from "viem";
import type { ShortCache } from "../cache/short-cache.ts";
import type { Config } from "../config.ts";
import type { Databases, LedgerDb, PlatformDb } from "../db/database.ts";
import type { OrganizationChainsTable, SystemContracts } from "../db/platform-types.ts";
import { ApiError } from "../errors/api-error.ts";
import { parseChainIdHeader } from "../http/context-headers.ts";
import type { AppEnv } from "../http/env.ts";
import { prefersStrictHandling } from "../http/prefer.ts";
import { type ChainRequest, rawRequest } from "./chain-service.ts";
import { clientForRequest, requestDeadline } from "./chain-unavailable.ts";
import type { ServedChain, ServedChains } from "./served-chains.ts";

export interface RequestChain extends ServedChain {
  systemAddress: Address;
  tokenFactoryAddress: Address;
  /** The system's contracts by role (compliance engine, identity registry, ...). */
  contracts: SystemContracts;
  /** The index's views of this chain only. */
  ledger: LedgerDb;
}

async function lookup(db: PlatformDb, organizationId: string, headerChainId: number | undefined) {
  try {
    // One query: the organisation's default chain (when no header chose one) and its system there.
    const found = await db
      .selectFrom("organizations as o")
      .leftJoin("organizationChains as oc", (join) =>
        join
          .onRef("oc.organizationId", "=", "o.id")
          .on((eb) => eb("oc.chainId", "=", headerChainId ?? eb.ref("o.defaultChainId"))),
      )
      .select([
        "o.defaultChainId",
        "oc.chainId",
        "oc.status",
        "oc.systemAddress",
        "oc.tokenFactoryAddress",
        "oc.contracts",
        // None on any chain: its system was never requested (SYSTEM_NOT_CREATED), not merely absent from this one.
        (eb) =>
          eb
            .exists(
              eb
                .selectFrom("organizationChains as any")
                .select("any.chainId")
                .whereRef("any.organizationId", "=", "o.id"),
            )
            .as("hasSystem"),
      ])
      .where("o.id", "=", organizationId)
      .executeTakeFirstOrThrow();
    const chainId = headerChainId ?? found.defaultChainId;
    const row = found.chainId === null ? undefined : found;
    return {
      chainId,
      hasSystem: Boolean(found.hasSystem),
      row: row as
        | (Pick<OrganizationChainsTable, "systemAddress" | "tokenFactoryAddress" | "contracts"> & { status: string })
        | undefined,
    };
  } catch {
    throw new ApiError("svc.runtime.REQUEST_CHAIN_LOOKUP_FAILED");
  }
}

export type RequestChainContext = {
  db: Databases;
  chains: ServedChains;
  config: Pick<Config, "CHAIN_REQUEST_TIMEOUT_SECONDS">;
};

/**
 * The served chain (with `more`) and the request's own client: its calls end by the request's deadline (503 once
 * passed), made on first use (most requests never call the node).
 */
function forRequest<T extends object>(
  c: Context<AppEnv>,
  ctx: RequestChainContext,
  chainId: number,
  more: T,
  eager = false,
): ServedChain & T {
  const served = ctx.chains.get(chainId);
  const base = eager ? served.eagerClient : served.client;
  const timeoutMs = ctx.config.CHAIN_REQUEST_TIMEOUT_SECONDS * 1000;
  let client: PublicClient | undefined;
  let request: ChainRequest | undefined;
  return {
    ...served,
    ...more,
    get client() {
      client ??= clientForRequest(c, base, timeoutMs);
      return client;
    },
    get request() {
      request ??= rawRequest(base, requestDeadline(c, base, timeoutMs));
      return request;
    },
  };
}

/** The served chain a request names (X-Chain-Id, else the organisation's default) and its system row there. */
async function resolve(c: Context<AppEnv>, ctx: RequestChainContext) {
  const { organizationId } = c.get("principal");
  const headerChainId = parseChainIdHeader(c.req.header("x-chain-id"));
  if (headerChainId !== undefined && !ctx.chains.has(headerChainId)) {
    throw new ApiError("CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION", { details: { chainId: headerChainId } });
  }
  const cache = c.get("chainRows") as ShortCache<Awaited<ReturnType<typeof lookup>>> | undefined;
  const load = () => lookup(ctx.db.platform, organizationId, headerChainId);
  const found = (cache ? await cache.get(`${organizationId}/${headerChainId ?? ""}`, load) : await load())!;
  if (!ctx.chains.has(found.chainId)) {
    throw new ApiError("CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION", { details: { chainId: found.chainId } });
  }
  c.set("requestChainId", found.chainId);
  return found;
}

/**
 * Only the chain a request works on, for reads of the platform's own rows that need no system there (e.g. the
 * transaction requests).
 */
export async function requestChainId(c: Context<AppEnv>, ctx: RequestChainContext): Promise<number> {
  return (await resolve(c, ctx)).chainId;
}

/**
 * The request's served chain (its node and the platform's contracts there), for routes that need no system on it.
 * `eager`: its client sends each call at once, batched only while the node is busy (chain-service.ts), for a route
 * whose calls follow one another.
 */
export async function requestServedChain(
  c: Context<AppEnv>,
  ctx: RequestChainContext,
  { eager = false } = {},
): Promise<ServedChain> {
  return forRequest(c, ctx, (await resolve(c, ctx)).chainId, {}, eager);
}

export async function requestChain(c: Context<AppEnv>, ctx: RequestChainContext): Promise<RequestChain> {
  const { chainId, row, hasSystem } = await resolve(c, ctx);
  if (!row && !hasSystem) throw new ApiError("SYSTEM_NOT_CREATED", { details: { chainId } });
  if (!row) throw new ApiError("REQUEST_CHAIN_SYSTEM_REQUIRED", { details: { chainId } });
  if (row.status !== "ready" || !row.systemAddress || !row.tokenFactoryAddress || !row.contracts) {
    throw new ApiError("CHAIN_NOT_READY", { details: { chainId, chainStatus: row.status } });
  }
  // Its index is read by the caller (and a write's checks): not before it has caught up after a start.
  await c.get("indexGate")?.enter(chainId, { noWait: prefersStrictHandling(c.req.header("prefer")) });
  return forRequest(c, ctx, chainId, {
    systemAddress: row.systemAddress as Address,
    tokenFactoryAddress: row.tokenFactoryAddress as Address,
    contracts: row.contracts,
    ledger: ctx.db.ledgerOn(chainId),
  });
}
