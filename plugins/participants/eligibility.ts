// Whether each address may take part in an action on a token, asked of the chain (nothing is sent):
// mint and burn run as eth_calls from the organisation's signer; a transfer's recipient must not be frozen and must
// pass the token's compliance engine (canTransfer from the signer, one raw unit).
import { type Address, encodeFunctionData, getAddress, type PublicClient } from "viem";
import { ComplianceAbi } from "../../abis/Compliance.ts";
import { TokenAbi } from "../../abis/Token.ts";
import { simulateCall } from "../../host/chain/simulate.ts";
import type { ELIGIBILITY_ACTIONS } from "./collections.ts";

export type EligibilityAction = (typeof ELIGIBILITY_ACTIONS)[number];

interface CheckedToken {
  address: Address;
  compliance: Address | null;
}

async function eligibleFor(
  client: PublicClient,
  token: CheckedToken,
  action: EligibilityAction,
  signer: Address,
  account: Address,
): Promise<boolean> {
  if (action !== "transfer") {
    const data = encodeFunctionData({ abi: TokenAbi, functionName: action, args: [account, 1n] });
    return (await simulateCall(client, { from: signer, to: token.address, data })).ok;
  }
  const frozen = await client.readContract({
    abi: TokenAbi,
    address: token.address,
    functionName: "isFrozen",
    args: [account],
  });
  if (frozen) return false;
  if (!token.compliance) return true;
  const [allowed] = await client.readContract({
    abi: ComplianceAbi,
    address: token.compliance,
    functionName: "canTransfer",
    args: [token.address, signer, account, 1n],
  });
  return allowed;
}

/** One verdict per address, in order; a participant without an address for the purpose is not eligible. */
export function eligibility(
  client: PublicClient,
  token: CheckedToken,
  action: EligibilityAction,
  signer: Address,
  addresses: (string | null)[],
): Promise<boolean[]> {
  return Promise.all(
    addresses.map((address) =>
      address === null ? false : eligibleFor(client, token, action, signer, getAddress(address)),
    ),
  );
}
