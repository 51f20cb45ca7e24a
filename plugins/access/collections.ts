// How API keys and members are listed: fields, filters, sorts and facets of the two collection routes.

import { ROLES } from "../../host/auth/permissions.ts";
import { ARRAY_MEMBERSHIP_OPERATORS, arrayMembership, defineCollection } from "../../host/collections/index.ts";

export const API_KEY_COLLECTION = defineCollection({
  fields: {
    id: { column: "id", type: "text", filter: { operators: ["eq", "inArray"] } },
    name: { column: "name", type: "text", sortable: true },
    prefix: { column: "keyPrefix", type: "text" },
    scope: { column: "scope", type: "enum", values: ["read", "read-write"], sortable: true, facet: true },
    userId: { column: "userId", type: "text", filter: { operators: ["eq", "ne", "inArray"] } },
    createdAt: { column: "createdAt", type: "timestamp", sortable: true },
    expiresAt: { column: "expiresAt", type: "timestamp", sortable: true },
    lastUsedAt: { column: "lastUsedAt", type: "timestamp", sortable: true },
    revokedAt: { column: "revokedAt", type: "timestamp", sortable: true },
  },
  search: ["name", "prefix"],
  defaultSort: "-createdAt",
  tiebreaker: "id",
  totalFromFacet: "scope",
});

export const MEMBER_COLLECTION = defineCollection({
  fields: {
    userId: { column: "userId", type: "text", filter: { operators: ["eq", "inArray"] } },
    email: { column: "email", type: "text", sortable: true },
    displayName: { column: "displayName", type: "text", sortable: true },
    roles: {
      column: "roles",
      type: "enum",
      values: ROLES,
      filter: { operators: ARRAY_MEMBERSHIP_OPERATORS.filter((op) => op !== "isEmpty" && op !== "isNotEmpty") },
      condition: arrayMembership("roles"),
    },
    joinedAt: { column: "joinedAt", type: "timestamp", sortable: true },
  },
  search: ["email", "displayName"],
  defaultSort: "joinedAt",
  tiebreaker: "userId",
});
