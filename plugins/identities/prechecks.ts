// What a write checks on the chain first (live, so a write right after another one sees it): identities, claims, topics.
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  getAddress,
  type Hex,
  isAddressEqual,
  parseAbiItem,
  zeroAddress,
} from "viem";
import { IdentityAbi } from "../../abis/Identity.ts";
import { IdentityFactoryAbi } from "../../abis/IdentityFactory.ts";
import { TopicSchemeRegistryAbi } from "../../abis/TopicSchemeRegistry.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { addressKey, CLAIM_PURPOSE, topicIdOf } from "./claim-signing.ts";

const KEY_ADDED = parseAbiItem("event KeyAdded(bytes32 indexed key, uint256 indexed purpose, uint256 indexed keyType)");
/** Identities per eth_getLogs call (providers limit the address list). */
const LOG_ADDRESSES = 500;

/** A call the contract refused, or an address without the contract: an answer about the state, not a failure. */
function refused(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return Boolean(
    error.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError),
  );
}

/** The wallet's identity from the system's factory (zero when it has none). */
function factoryIdentity(chain: RequestChain, wallet: Address): Promise<Address> {
  return chain.client.readContract({
    abi: IdentityFactoryAbi,
    address: getAddress(chain.contracts.identityFactory),
    functionName: "getIdentity",
    args: [wallet],
  });
}

/**
 * The signing wallet's claim issuer identity: its identity, and whether its key may sign claims for it. A wallet with
 * no identity of its own signs for an identity of the system naming its key a claim key (a key moved to the HSM
 * signs for the issuer identity of the key it replaced).
 */
export async function claimIssuerOf(chain: RequestChain, wallet: Address) {
  let identity = await factoryIdentity(chain, wallet);
  if (isAddressEqual(identity, zeroAddress)) identity = (await claimKeyIdentity(chain, wallet)) ?? zeroAddress;
  if (isAddressEqual(identity, zeroAddress)) return { identity: null, canSignClaims: false };
  const canSignClaims = await chain.client.readContract({
    abi: IdentityAbi,
    address: identity,
    functionName: "keyHasPurpose",
    args: [addressKey(wallet), CLAIM_PURPOSE],
  });
  return { identity, canSignClaims };
}

/** The system's identity where `wallet`'s key holds the claim purpose now, found by the identities' KeyAdded logs. */
async function claimKeyIdentity(chain: RequestChain, wallet: Address): Promise<Address | undefined> {
  const identities = await chain.ledger
    .selectFrom("identity")
    .select("id")
    .where("system", "=", indexedHex(chain.systemAddress))
    .where("isContract", "=", false)
    .execute();
  for (let at = 0; at < identities.length; at += LOG_ADDRESSES) {
    const logs = await chain.client.getLogs({
      address: identities.slice(at, at + LOG_ADDRESSES).map((row) => getAddress(row.id)),
      event: KEY_ADDED,
      args: { key: addressKey(wallet), purpose: CLAIM_PURPOSE },
      fromBlock: 0n,
    });
    for (const log of logs.reverse()) {
      const held = await chain.client.readContract({
        abi: IdentityAbi,
        address: log.address,
        functionName: "keyHasPurpose",
        args: [addressKey(wallet), CLAIM_PURPOSE],
      });
      if (held) return getAddress(log.address);
    }
  }
  return undefined;
}

/** The issuer identity the signing wallet signs claims for, or CLAIM_ISSUER_NOT_CONFIGURED. */
export async function requireClaimIssuer(chain: RequestChain, wallet: Address): Promise<Address> {
  const issuer = await claimIssuerOf(chain, wallet);
  if (!issuer.identity || !issuer.canSignClaims) {
    throw new ApiError("CLAIM_ISSUER_NOT_CONFIGURED", { details: { wallet, identity: issuer.identity } });
  }
  return issuer.identity;
}

/** The registered topic scheme named `name` (its id and data signature), or TOPIC_SCHEME_NOT_FOUND. */
export async function topicScheme(chain: RequestChain, name: string) {
  const topicId = topicIdOf(name);
  try {
    const [, signature] = await chain.client.readContract({
      abi: TopicSchemeRegistryAbi,
      address: getAddress(chain.contracts.topicSchemeRegistry),
      functionName: "getTopicScheme",
      args: [topicId],
    });
    return { topicId, signature };
  } catch (error) {
    if (!refused(error)) throw error;
    throw new ApiError("TOPIC_SCHEME_NOT_FOUND", { details: { topic: name, topicId: topicId.toString() } });
  }
}

/** The claim `claimId` on `identity` (its issuer and topic), or CLAIM_NOT_FOUND when the identity has none. */
export async function attachedClaim(chain: RequestChain, identity: Address, claimId: Hex) {
  const [topic, , issuer] = await chain.client
    .readContract({ abi: IdentityAbi, address: identity, functionName: "getClaim", args: [claimId] })
    .catch((error) => {
      if (!refused(error)) throw error;
      return [0n, 0n, zeroAddress] as const;
    });
  if (isAddressEqual(issuer, zeroAddress)) {
    throw new ApiError("CLAIM_NOT_FOUND", { details: { identityAddress: identity, claimId } });
  }
  return { topic, issuer };
}
