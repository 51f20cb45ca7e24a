// Validates the context headers (X-Chain-Id, X-Executor, X-Participant) before any route runs, so an invalid
// selection is refused before anything is queued.
import type { MiddlewareHandler } from "hono";
import { isMember } from "../auth/memberships.ts";
import { hasPermission } from "../auth/permissions.ts";
import type { ShortCache } from "../cache/short-cache.ts";
import type { PlatformDb } from "../db/database.ts";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv } from "./env.ts";

export interface ContextHeaderDeps {
  db: PlatformDb;
  servedChainIds: number[];
  accountAbstractionEnabled: boolean;
  /** Executor modes beyond `eoa` the plugins provide. */
  executors: ReadonlyMap<string, unknown>;
}

/** A decimal chain id, or undefined when the header is absent; CHAIN_ID_HEADER_INVALID otherwise. */
export function parseChainIdHeader(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d{0,15}$/.test(value.trim())) throw new ApiError("CHAIN_ID_HEADER_INVALID");
  return Number(value.trim());
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The organisation's executor policy (read by every write and every smart-wallet request), cached for a few seconds. */
async function executorPolicy(deps: ContextHeaderDeps, organizationId: string, cache: ShortCache<unknown> | undefined) {
  const load = () =>
    deps.db
      .selectFrom("organizations")
      .select(["defaultExecutor", "accountAbstractionEnabled"])
      .where("id", "=", organizationId)
      .executeTakeFirst();
  return (cache ? await cache.get(`executor-policy/${organizationId}`, load) : await load()) as Awaited<
    ReturnType<typeof load>
  >;
}

export function contextHeaders(deps: ContextHeaderDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get("principal");
    const chainId = parseChainIdHeader(c.req.header("x-chain-id"));
    if (chainId !== undefined && !deps.servedChainIds.includes(chainId)) {
      throw new ApiError("CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION", { details: { chainId } });
    }

    const named = c.req.header("x-executor");
    if (named !== undefined && named !== "eoa" && named !== "smart-wallet")
      throw new ApiError("INVALID_REQUEST_EXECUTOR");
    const policy = () => executorPolicy(deps, principal.organizationId, c.get("organizationRows"));
    // A write that names no executor runs as the organisation's executor policy says (reads need none): its default,
    // while smart-wallet execution is allowed (else its writes run as EOAs).
    let executor = named;
    if (executor === undefined && !READS.has(c.req.method)) {
      const org = await policy();
      const allowed = deps.accountAbstractionEnabled && org?.accountAbstractionEnabled;
      executor = allowed && org?.defaultExecutor === "smart-wallet" ? "smart-wallet" : "eoa";
    }
    if (named === "smart-wallet") {
      if (!deps.accountAbstractionEnabled) throw new ApiError("X_EXECUTOR_AA_DISABLED_GLOBALLY");
      if (!(await policy())?.accountAbstractionEnabled) throw new ApiError("X_EXECUTOR_AA_DISABLED_FOR_ORG");
    }
    if (executor === "smart-wallet" && !deps.executors.has("smart-wallet"))
      throw new ApiError("REQUEST_EXECUTOR_UNAVAILABLE", { details: { executor } });

    const participant = c.req.header("x-participant");
    if (participant !== undefined && participant !== principal.userId) {
      const member = participant.length <= 64 && (await isMember(deps.db, principal.organizationId, participant));
      if (!member || !hasPermission(principal.roles, "participant:act-for-others")) {
        throw new ApiError("REQUEST_PARTICIPANT_FORBIDDEN");
      }
    }
    c.set("requestContext", {
      executor: executor as "eoa" | "smart-wallet" | undefined,
      executorFromPolicy: named === undefined && executor !== undefined,
      participantId: participant ?? principal.userId,
    });
    await next();
  };
}
