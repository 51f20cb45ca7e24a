// The one way a route performs a chain write: validate Prefer, Idempotency-Key and X-Transaction-Speed, choose the signer, queue
// (or attach to the earlier request with the same key), then answer as the caller preferred.
import type { Context } from "hono";
import type { Address, Hex } from "viem";
import type { TransactionRequestRow, WalletSelection } from "../db/platform-types.ts";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv } from "../http/env.ts";
import { accepted, statusUrl } from "../http/envelopes.ts";
import { type Preference, parsePrefer, preferenceApplied } from "../http/prefer.ts";
import { parseTransactionSpeed } from "../http/transaction-speed.ts";
import type { PluginContext } from "../plugin.ts";
import type { ContractError } from "./contract-errors.ts";
import { effectiveIdempotencyKey, IDEMPOTENT_REPLAYED } from "./idempotency.ts";
import { revertError } from "./revert-errors.ts";

const INDEX_CATCH_UP_MS = 30_000;

export interface ChainWrite {
  chainId: number;
  kind: string;
  to: Address;
  data: Hex;
  value?: bigint;
  walletSelection?: WalletSelection;
  /** The signer, when the route already resolved it (see requestSigner). */
  from?: Address;
  /** The request's human summary (see SubmitInput.description). */
  description?: string;
  /** Merged into the result once mined (see SubmitInput.resultContext). */
  resultContext?: Record<string, unknown>;
}

/**
 * The wallet that signs for this request: the caller's organisation, executor mode and wallet selection, on the
 * request's chain (resolved by requestChain first).
 */
export function requestSigner(
  c: Context<AppEnv>,
  ctx: Ctx,
  selection: WalletSelection = {},
  chainId = c.get("requestChainId"),
): Promise<Address> {
  if (chainId === undefined) throw new Error("requestSigner needs the request's chain: call requestChain first");
  return ctx.mutations.signerFor({
    organizationId: c.get("principal").organizationId,
    executor: requestExecutor(c, selection),
    selection,
    participantId: c.get("requestContext")?.participantId,
    chainId,
    cache: c.get("organizationRows"),
  });
}

/**
 * The executor mode a request runs in: a named smart wallet or `X-Executor: smart-wallet`, else the EOAs. The
 * organisation's default executor yields to a body that names an EOA wallet (`forceEoa`, `accountWalletId`).
 */
export function requestExecutor(c: Context<AppEnv>, selection: WalletSelection = {}): "eoa" | "smart-wallet" {
  if (selection.smartWalletAddress) return "smart-wallet";
  const context = c.get("requestContext");
  if (context?.executorFromPolicy && (selection.forceEoa || selection.accountWalletId)) return "eoa";
  return context?.executor ?? "eoa";
}

/** The wallet-selection fields of a request body (see WalletSelectionFields). */
export function walletSelectionOf(body: WalletSelection): WalletSelection {
  const { accountWalletId, smartWalletAddress, forceEoa } = body;
  return {
    ...(accountWalletId !== undefined ? { accountWalletId } : {}),
    ...(smartWalletAddress !== undefined ? { smartWalletAddress } : {}),
    ...(forceEoa !== undefined ? { forceEoa } : {}),
  };
}

type Ctx = Pick<PluginContext, "db" | "mutations" | "index" | "executors">;

async function answer(c: Context<AppEnv>, ctx: Ctx, request: TransactionRequestRow, preference: Preference) {
  const started = Date.now();
  const deadline = started + (preference.waitSeconds ?? 0) * 1000;
  const row = preference.waitSeconds
    ? ((await ctx.mutations.waitForTerminal(request.organizationId, request.id, deadline)) ?? request)
    : request;
  if (row.transactionHash) c.header("X-Transaction-Hash", row.transactionHash);
  const applied = preferenceApplied(preference);
  if (applied) c.header("Preference-Applied", applied);
  const details = { transactionId: row.id, statusUrl: statusUrl(row.id) };

  if (row.status === "COMPLETED") {
    // Reads right after this answer should see the write: let the index reach the block first.
    if (row.blockNumber !== null) await ctx.index.waitForBlock(row.chainId, row.blockNumber, INDEX_CATCH_UP_MS);
    const data = {
      transactionId: row.id,
      kind: row.kind,
      status: row.status,
      blockNumber: row.blockNumber?.toString() ?? null,
      ...((row.result as object) ?? {}),
    };
    return c.json(
      {
        data,
        meta: { txHashes: row.transactionHash ? [row.transactionHash] : [] },
        links: { self: details.statusUrl },
      },
      200,
    );
  }
  if (row.status === "FAILED") {
    if (row.subStatus === "HSM_MOFN_QUORUM_EXPIRED") throw new ApiError("HSM_MOFN_QUORUM_EXPIRED", { details });
    const fallbackMessage = row.errorMessage ?? "The chain refused the operation";
    if (row.contractError) throw revertError(row.contractError as ContractError, { details, fallbackMessage });
    throw new ApiError("CONTRACT_ERROR", { message: fallbackMessage, details });
  }
  // Cancelled or dead-lettered while the caller waited: terminal, and the same answer a retry with this key gets.
  if (row.status === "CANCELLED") throw new ApiError("IDEMPOTENCY_REQUEST_CANCELLED", { details });
  if (row.status === "DEAD_LETTER") {
    const status = { status: row.status, subStatus: row.subStatus, errorMessage: row.errorMessage };
    throw new ApiError("IDEMPOTENCY_REQUEST_UNRECOVERABLE", { details: { ...details, ...status } });
  }
  if (preference.waitSeconds && !preference.respondAsync) {
    throw new ApiError("REQUEST_DEADLINE_EXCEEDED", { headers: { "Retry-After": "5" }, details });
  }
  return accepted(c, row);
}

export async function submitChainWrite(c: Context<AppEnv>, ctx: Ctx, write: ChainWrite) {
  const preference = parsePrefer(c.req.header("prefer"));
  const key = effectiveIdempotencyKey(c.req.header("idempotency-key"));
  const speed = parseTransactionSpeed(c.req.header("x-transaction-speed"));
  const principal = c.get("principal");
  const walletSelection = write.walletSelection ?? {};
  const from = write.from ?? (await requestSigner(c, ctx, walletSelection, write.chainId));
  const request = await ctx.mutations.submit({
    organizationId: principal.organizationId,
    chainId: write.chainId,
    kind: write.kind,
    to: write.to,
    data: write.data,
    value: write.value,
    createdBy: principal.userId,
    from,
    idempotencyKey: key,
    executor: requestExecutor(c, walletSelection),
    walletSelection,
    speed,
    ...(write.description !== undefined ? { description: write.description } : {}),
    ...(write.resultContext !== undefined ? { resultContext: write.resultContext } : {}),
  });
  c.header("Idempotency-Key", key);
  // As Stripe does: the answer is the earlier request's (its recorded result, or that request followed), not a new one.
  if (request.replayed) c.header(IDEMPOTENT_REPLAYED, "true");
  return answer(c, ctx, request, preference);
}
