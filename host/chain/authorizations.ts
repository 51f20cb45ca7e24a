// EIP-7702 authorisations a chain write carries (SubmitInput.authorizationList): stored with the request as JSON, and
// the transaction fields they make, a type-4 transaction with its authorizationList (else the usual EIP-1559 one).
import type { Address, Hex } from "viem";

/** One signed authorisation as the request stores it (viem's SignedAuthorization, without its bigint `v`). */
export interface StoredAuthorization {
  address: Address;
  chainId: number;
  nonce: number;
  r: Hex;
  s: Hex;
  yParity: number;
}

/** The list as the request row's `authorization_list` holds it; null without one. */
export function storedAuthorizationList(list: readonly StoredAuthorization[] | undefined): string | null {
  if (!list || list.length === 0) return null;
  return JSON.stringify(
    list.map(({ address, chainId, nonce, r, s, yParity }) => ({ address, chainId, nonce, r, s, yParity })),
  );
}

/** The transaction type a request is signed as: type 4 with the stored list, otherwise EIP-1559. */
export function transactionTypeOf(
  list: readonly StoredAuthorization[] | null,
): { type: "eip1559" } | { type: "eip7702"; authorizationList: StoredAuthorization[] } {
  return list && list.length > 0 ? { type: "eip7702", authorizationList: [...list] } : { type: "eip1559" };
}
