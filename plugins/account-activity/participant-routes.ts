import { hasPermission } from "../../host/auth/permissions.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import type { App } from "../../host/http/env.ts";
import { findParticipant } from "../../host/http/find-participant.ts";
import { ParticipantPathParams } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { feedRoutes } from "./feed-routes.ts";

export function participantActivityRoutes(app: App, ctx: PluginContext) {
  feedRoutes(app, {
    base: "/api/v2/participants/{participantId}",
    tags: ["participants"],
    subject: "A participant's",
    description:
      "Events where any of the participant's wallets is the sender, account, emitter, token, an involved address or " +
      "the meta-transaction signer. Another participant's feed needs identityManager or claimIssuer, else it is " +
      "empty. 404 PARTICIPANT_NOT_FOUND (SVC-0524) for an id outside the organisation.",
    params: ParticipantPathParams,
    async feed(c, { participantId }) {
      const chain = await requestChain(c, ctx);
      const participant = await findParticipant(c, ctx.config.INDEX_VIEWS_SCHEMA, chain, participantId);
      const { userId, roles } = c.get("principal");
      // The acting participant (X-Participant, checked by the host) reads its own feed.
      const acting = c.get("requestContext")?.participantId ?? userId;
      const own = participant.kind === "person" && participant.id === acting;
      if (!own && !hasPermission(roles, "activity:read-others")) return null;
      return { ledger: chain.ledger, system: chain.systemAddress, addresses: participant.wallets, feed: "participant" };
    },
  });
}
