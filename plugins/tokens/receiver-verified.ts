// The forced transfer's pre-check: the receiver must be verified by the system's identity registry, as the token
// contract itself requires (ERC-3643); refused here first, naming the wallet, instead of as a reverted transaction.
import { type Address, getAddress } from "viem";
import { IdentityRegistryAbi } from "../../abis/IdentityRegistry.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { ApiError } from "../../host/errors/api-error.ts";

export async function assertReceiverVerified(chain: RequestChain, receiver: Address): Promise<void> {
  const verified = await chain.client.readContract({
    address: getAddress(chain.contracts.identityRegistry),
    abi: IdentityRegistryAbi,
    functionName: "isVerified",
    args: [receiver, []],
  });
  if (verified) return;
  throw new ApiError("TOKEN_RECEIVER_NOT_VERIFIED", {
    message:
      `The receiver ${receiver} is not verified in the system's identity registry: a forced transfer needs a ` +
      "registered identity (POST /api/v2/system/identities)",
    details: { receiver },
  });
}
