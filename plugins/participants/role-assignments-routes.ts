import { assertPermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { collectionPage, collectionRoute } from "../../host/collections/index.ts";
import type { App } from "../../host/http/env.ts";
import { findParticipant } from "../../host/http/find-participant.ts";
import { ParticipantPathParams } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import {
  ROLE_ASSIGNMENT_COLLECTION,
  type RoleAssignmentRow,
  systemRoleAssignments,
  toRoleAssignment,
} from "./role-assignments-collection.ts";
import { RoleAssignmentSchema } from "./role-assignments-schemas.ts";

const FIELDS_DESCRIPTION =
  "Each item: account, role (its name, e.g. SYSTEM_MANAGER_ROLE; roleId its bytes32 id), contract (the system's " +
  "access manager or one of its tokens), grantedAt, grantedBy and the grant's transactionHash; revoked roles are " +
  "left out. Filters: `filter[account]`, `filter[role]`, `filter[contract]` (addresses in any case); sorted by " +
  "grantedAt (oldest first) unless `sort` says otherwise; facets role and contract.";

const systemList = collectionRoute({
  path: "/api/v2/system/role-assignments",
  tags: ["system"],
  summary: "List the roles held on the organisation's system and its tokens",
  description: `The on-chain role grants of the system on the request's chain, the ones made when the system and each token were created included. ${FIELDS_DESCRIPTION}`,
  permission: "roleAssignment:read",
  collection: ROLE_ASSIGNMENT_COLLECTION,
  item: RoleAssignmentSchema,
  listed: "The role assignments; facets role, contract",
});

const participantList = collectionRoute({
  path: "/api/v2/participants/{participantId}/role-assignments",
  tags: ["participants"],
  summary: "List the roles a participant's wallets hold on the organisation's system and its tokens",
  description:
    "The role assignments of the system (GET /api/v2/system/role-assignments) held by any wallet of the " +
    "participant. A person reads their own; another participant's need roleAssignment:read (403 " +
    `USER_NOT_AUTHORIZED). 404 PARTICIPANT_NOT_FOUND (SVC-0524) for an id outside the organisation. ${FIELDS_DESCRIPTION}`,
  permission: "participant:read",
  params: ParticipantPathParams,
  collection: ROLE_ASSIGNMENT_COLLECTION,
  item: RoleAssignmentSchema,
  listed: "The participant's role assignments; facets role, contract",
});

const toItems = (rows: RoleAssignmentRow[]) => rows.map(toRoleAssignment);

export function roleAssignmentRoutes(app: App, ctx: PluginContext) {
  app.openapi(systemList, async (c) => {
    const page = await collectionPage(
      c,
      ROLE_ASSIGNMENT_COLLECTION,
      async () => {
        const chain = await requestChain(c, ctx);
        return systemRoleAssignments(chain.ledger, chain.contracts.accessManager, chain.systemAddress);
      },
      toItems,
    );
    return c.json(page, 200);
  });

  app.openapi(participantList, async (c) => {
    const { participantId } = c.req.valid("param");
    const page = await collectionPage(
      c,
      ROLE_ASSIGNMENT_COLLECTION,
      async () => {
        const chain = await requestChain(c, ctx);
        const participant = await findParticipant(c, ctx.config.INDEX_VIEWS_SCHEMA, chain, participantId);
        const { userId, roles, platformRoles } = c.get("principal");
        // The acting participant (X-Participant, checked by the host) reads its own.
        const acting = c.get("requestContext")?.participantId ?? userId;
        const own = participant.kind === "person" && participant.id === acting;
        if (!own) assertPermission(roles, "roleAssignment:read", undefined, platformRoles);
        const { accessManager } = chain.contracts;
        return systemRoleAssignments(chain.ledger, accessManager, chain.systemAddress, participant.wallets);
      },
      toItems,
    );
    return c.json(page, 200);
  });
}
