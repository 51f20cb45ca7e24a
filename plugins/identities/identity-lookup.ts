// An identity of the caller's system, from the index: by its address, or by a wallet registered with it.
import { type Address, getAddress } from "viem";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";

/** The identity at `address` if the system's factory created it, else IDENTITY_NOT_FOUND (another system's or none). */
export async function systemIdentity(db: LedgerDb, system: string, address: string) {
  const row = await db
    .selectFrom("identity")
    .selectAll()
    .where("id", "=", indexedHex(address))
    .where("system", "=", indexedHex(system))
    .executeTakeFirst();
  if (!row) throw new ApiError("IDENTITY_NOT_FOUND", { details: { identityAddress: address } });
  return row;
}

/** The subject of a claim write: the given identity, or the wallet's (registered in the system, else its own). */
export async function subjectIdentity(
  chain: RequestChain,
  subject: { identityAddress?: string; wallet?: string },
): Promise<Address> {
  const db = chain.ledger;
  if (subject.identityAddress) {
    return getAddress((await systemIdentity(db, chain.systemAddress, subject.identityAddress)).id);
  }
  const wallet = indexedHex(subject.wallet as string);
  const registered = await db
    .selectFrom("identityRegistration")
    .select("identity")
    .where("registry", "=", indexedHex(chain.contracts.identityRegistry))
    .where("wallet", "=", wallet)
    .executeTakeFirst();
  const own = await db
    .selectFrom("identity")
    .select("id")
    .where("system", "=", indexedHex(chain.systemAddress))
    .where((eb) => (registered ? eb("id", "=", registered.identity) : eb("account", "=", wallet)))
    .executeTakeFirst();
  if (!own) {
    throw new ApiError("IDENTITY_NOT_FOUND", { message: `The wallet ${wallet} has no identity`, details: { wallet } });
  }
  return getAddress(own.id);
}
