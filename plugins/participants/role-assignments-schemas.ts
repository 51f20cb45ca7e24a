// The role assignment item of both role-assignment lists.
import { z } from "@hono/zod-openapi";

export const RoleAssignmentSchema = z
  .object({
    account: z.string().openapi({ description: "The account holding the role (checksummed)" }),
    role: z.string().openapi({
      description:
        "The role's name, e.g. SYSTEM_MANAGER_ROLE or SUPPLY_MANAGEMENT_ROLE (its id when not a platform role)",
    }),
    roleId: z.string().openapi({ description: "The role's bytes32 id" }),
    contract: z
      .string()
      .openapi({ description: "The contract the role is held on: the system's access manager or a token" }),
    grantedAt: z.string().openapi({ description: "When the role was (last) granted, ISO 8601" }),
    grantedBy: z.string().openapi({ description: "The account that granted it" }),
    transactionHash: z.string().openapi({ description: "The transaction of the grant" }),
  })
  .openapi("RoleAssignment");
