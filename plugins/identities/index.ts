// Identities: onboarding, contract identities (entities), claims as the organisation's claim issuer, the claim
// policy (trusted issuers, topic schemes), and the index reads of entities and claim events.
import { definePlugin } from "../../host/plugin.ts";
import { claimEventRoutes } from "./claim-events-routes.ts";
import { claimIssuerRoutes } from "./claim-issuer-routes.ts";
import { claimPolicyReadRoutes } from "./claim-policy-query.ts";
import { claimPolicyRoutes } from "./claim-policy-routes.ts";
import { claimRoutes } from "./claim-routes.ts";
import { entityRoutes } from "./entity-routes.ts";
import { ERRORS } from "./errors.ts";
import { identityListRoute } from "./identity-list-route.ts";
import { IDENTITY_MUTATION_KINDS } from "./mutation-kinds.ts";
import { PERMISSIONS } from "./permissions.ts";
import { identityRoutes } from "./routes.ts";

export default definePlugin({
  id: "identities",
  requires: ["custody", "kycDocuments"],
  errors: ERRORS,
  permissions: PERMISSIONS,
  routes(app, ctx) {
    identityRoutes(app, ctx);
    identityListRoute(app, ctx);
    entityRoutes(app, ctx);
    claimEventRoutes(app, ctx);
    claimIssuerRoutes(app, ctx);
    claimRoutes(app, ctx);
    claimPolicyRoutes(app, ctx);
    claimPolicyReadRoutes(app, ctx);
  },
  mutationKinds: IDENTITY_MUTATION_KINDS,
});
