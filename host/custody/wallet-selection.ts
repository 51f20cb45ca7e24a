// Which wallet signs a request: the spec's accountWalletId / smartWalletAddress / forceEoa, checked before queueing.
import type { Address } from "viem";
import type { ShortCache } from "../cache/short-cache.ts";
import type { PlatformDb } from "../db/database.ts";
import type { WalletSelection } from "../db/platform-types.ts";
import { ApiError } from "../errors/api-error.ts";
import type { RequestExecutor } from "../mutations/executors.ts";
import { type Custody, ORGANIZATION_PRIMARY_PATH } from "./custody.ts";
import { currentKeyAddress } from "./key-move.ts";

export async function resolveSigner(
  db: PlatformDb,
  custody: Custody,
  input: {
    organizationId: string;
    executor: "eoa" | "smart-wallet" | undefined;
    selection: WalletSelection;
    /** The acting participant: besides the organisation's wallets, only its own may be selected. */
    participantId?: string;
    chainId: number;
    /** Executor modes beyond `eoa` the plugins provide. */
    executors: ReadonlyMap<string, RequestExecutor>;
    /** Keeps the organisation's primary wallet for a few seconds (host/cache/short-cache.ts); absent: read each time. */
    cache?: ShortCache<unknown>;
  },
): Promise<Address> {
  const { selection, organizationId } = input;
  if (selection.smartWalletAddress && (selection.accountWalletId || selection.forceEoa)) {
    throw new ApiError("svc.runtime.INVALID_REQUEST_CUSTODY_ACCOUNT", {
      message: "smartWalletAddress cannot be combined with accountWalletId or forceEoa",
    });
  }
  if (selection.forceEoa && input.executor === "smart-wallet") {
    throw new ApiError("INVALID_REQUEST_EXECUTOR", { message: "forceEoa contradicts X-Executor: smart-wallet" });
  }
  if (selection.smartWalletAddress || input.executor === "smart-wallet") {
    const executor = input.executors.get("smart-wallet");
    if (!executor)
      throw new ApiError("REQUEST_EXECUTOR_UNAVAILABLE", {
        details: { executor: "smart-wallet", smartWalletAddress: selection.smartWalletAddress },
      });
    return executor.resolveSender({
      organizationId,
      participantId: input.participantId ?? "",
      chainId: input.chainId,
      address: selection.smartWalletAddress,
    });
  }
  // A wallet replaced by a move to the HSM is named through its successor: a retry of its write replays it.
  const named =
    selection.accountWalletId === undefined
      ? undefined
      : await currentKeyAddress(db, organizationId, selection.accountWalletId);
  const load = () =>
    db
      .selectFrom("wallets")
      .select("address")
      .where("organizationId", "=", organizationId)
      .where("kind", "=", "eoa")
      .where("successorAddress", "is", null) // a key replaced by a move to the HSM signs nothing new
      .$if(named !== undefined, (q) =>
        q
          .where("address", "=", named!)
          .where((eb) =>
            input.participantId === undefined
              ? eb("userId", "is", null)
              : eb.or([eb("userId", "is", null), eb("userId", "=", input.participantId)]),
          ),
      )
      .$if(selection.accountWalletId === undefined, (q) => q.where("derivationPath", "=", ORGANIZATION_PRIMARY_PATH))
      .executeTakeFirst();
  // Every write that selects no wallet signs with the primary one: worth keeping (a change to wallets drops it).
  const wallet =
    input.cache && selection.accountWalletId === undefined
      ? ((await input.cache.get(`primary-wallet/${organizationId}`, load)) as Awaited<ReturnType<typeof load>>)
      : await load();
  if (!wallet) {
    if (selection.accountWalletId)
      throw new ApiError("CUSTODY_ACCOUNT_SELECTION_INVALID", {
        details: { accountWalletId: selection.accountWalletId },
      });
    throw new ApiError("PRIMARY_CUSTODY_ACCOUNT_REQUIRED");
  }
  try {
    await custody.signer(organizationId, wallet.address as Address);
  } catch {
    throw new ApiError("REQUEST_CUSTODY_ACCOUNT_UNAVAILABLE", { details: { address: wallet.address } });
  }
  return wallet.address as Address;
}
