// The chain a request works on (X-Chain-Id, else the organisation's default) and the organisation's system there.
import type { Context } from "hono";
import type { Address } from "viem";
import type { PlatformDb } from "../db/database.ts";
import { ApiError } from "../errors/api-error.ts";
import { parseChainIdHeader } from "../http/context-headers.ts";
import type { AppEnv } from "../http/env.ts";

export interface RequestChain {
  chainId: number;
  systemAddress: Address;
  tokenFactoryAddress: Address;
}

export async function requestChain(
  c: Context<AppEnv>,
  db: PlatformDb,
  servedChainIds: number[],
): Promise<RequestChain> {
  const { organizationId } = c.get("principal");
  let chainId: number;
  const fromHeader = parseChainIdHeader(c.req.header("x-chain-id"));
  if (fromHeader !== undefined) {
    chainId = fromHeader;
  } else {
    const org = await db
      .selectFrom("organizations")
      .select("defaultChainId")
      .where("id", "=", organizationId)
      .executeTakeFirstOrThrow();
    chainId = org.defaultChainId;
  }
  if (!servedChainIds.includes(chainId))
    throw new ApiError("CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION", { details: { chainId } });
  const row = await db
    .selectFrom("organizationChains")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .where("chainId", "=", chainId)
    .executeTakeFirst();
  if (!row) throw new ApiError("REQUEST_CHAIN_SYSTEM_REQUIRED", { details: { chainId } });
  if (row.status !== "ready" || !row.systemAddress || !row.tokenFactoryAddress) {
    throw new ApiError("CHAIN_NOT_READY", { details: { chainId, chainStatus: row.status } });
  }
  return {
    chainId,
    systemAddress: row.systemAddress as Address,
    tokenFactoryAddress: row.tokenFactoryAddress as Address,
  };
}
