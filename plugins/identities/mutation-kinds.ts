// The identity layer's chain-write kinds: what each request's `result` reads from its receipt once mined.
import { type Abi, type Address, getAddress, type Log, parseEventLogs } from "viem";
import { IdentityAbi } from "../../abis/Identity.ts";
import { IdentityFactoryAbi } from "../../abis/IdentityFactory.ts";
import { IdentityRegistryAbi } from "../../abis/IdentityRegistry.ts";
import { TopicSchemeRegistryAbi } from "../../abis/TopicSchemeRegistry.ts";
import { TrustedIssuersRegistryAbi } from "../../abis/TrustedIssuersRegistry.ts";
import type { MutationKind } from "../../host/mutations/service.ts";

// biome-ignore lint/suspicious/noExplicitAny: decoded event arguments of several ABIs
type Args = Record<string, any>;

/** The first of `eventNames` in the receipt (the first name found wins), as `pick` reads it. */
function fromEvent(
  abi: Abi,
  eventNames: string[],
  pick: (args: Args, log: Log & { eventName: string }, from: Address) => Record<string, unknown>,
): MutationKind {
  return {
    result(receipt, request) {
      const logs = parseEventLogs({ abi, logs: receipt.logs }) as unknown as (Log & {
        eventName: string;
        args: Args;
      })[];
      for (const name of eventNames) {
        const log = logs.find((l) => l.eventName === name);
        if (log) return pick(log.args, log, request.fromAddress as Address);
      }
      throw new Error(`${eventNames.join(" or ")} missing from the receipt`);
    },
  };
}

const claim = (args: Args, log: Log) => ({
  identity: getAddress(log.address),
  claimId: args.claimId,
  topic: String(args.topic),
  issuer: args.issuer,
});
const topics = (args: Args) => ({ issuer: args.issuer, claimTopics: (args.claimTopics as bigint[]).map(String) });
const scheme = (args: Args) => ({ topicId: String(args.topicId), name: args.name, signature: args.signature });

export const IDENTITY_MUTATION_KINDS: Record<string, MutationKind> = {
  "identity.register": fromEvent(IdentityRegistryAbi, ["IdentityRegistered"], ({ wallet, identity, country }) => ({
    wallet,
    identity,
    country,
  })),
  "entity.create": fromEvent(
    IdentityFactoryAbi,
    ["ContractIdentityCreated"],
    ({ contractAddress, identity, manager }) => ({ contractAddress, identity, manager }),
  ),
  // A new issuer identity, or a CLAIM key added to the wallet's existing identity. Which of the two depends on the
  // chain when the request comes: a retry with the same key attaches whatever its calldata is now.
  "claimIssuer.create": {
    idempotencyIgnoresPayload: true,
    ...fromEvent([...IdentityFactoryAbi, ...IdentityAbi], ["IdentityCreated", "KeyAdded"], (args, log, from) =>
      log.eventName === "IdentityCreated"
        ? { wallet: args.wallet, identity: args.identity }
        : { wallet: getAddress(from), identity: getAddress(log.address) },
    ),
  },
  "claim.issue": fromEvent(IdentityAbi, ["ClaimAdded", "ClaimChanged"], (args, log) => ({
    ...claim(args, log),
    eventName: log.eventName,
  })),
  "claim.remove": fromEvent(IdentityAbi, ["ClaimRemoved"], claim),
  "claim.revoke": fromEvent(IdentityAbi, ["ClaimRevoked"], (args, log) => ({
    identity: args.subject,
    claimId: args.claimId,
    topic: String(args.topic),
    issuer: getAddress(log.address),
  })),
  "trustedIssuer.add": fromEvent(TrustedIssuersRegistryAbi, ["TrustedIssuerAdded"], topics),
  "trustedIssuer.update": fromEvent(TrustedIssuersRegistryAbi, ["ClaimTopicsUpdated"], topics),
  "trustedIssuer.remove": fromEvent(TrustedIssuersRegistryAbi, ["TrustedIssuerRemoved"], ({ issuer }) => ({ issuer })),
  "topicScheme.register": fromEvent(TopicSchemeRegistryAbi, ["TopicSchemeRegistered"], scheme),
  "topicScheme.update": fromEvent(TopicSchemeRegistryAbi, ["TopicSchemeUpdated"], scheme),
  "topicScheme.remove": fromEvent(TopicSchemeRegistryAbi, ["TopicSchemeRemoved"], scheme),
};
