// How role assignments are listed: the roles accounts hold on the system's access manager and on its tokens, from
// the index (role_assignment), with the role named (SYSTEM_MANAGER_ROLE) where the platform knows it.
import type { z } from "@hono/zod-openapi";
import { sql } from "kysely";
import { getAddress } from "viem";
import { KNOWN_ROLES } from "../../host/chain/role-names.ts";
import { defineCollection } from "../../host/collections/index.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import type { RoleAssignmentSchema } from "./role-assignments-schemas.ts";

const lowercase = (value: string) => value.toLowerCase();

export const ROLE_ASSIGNMENT_COLLECTION = defineCollection({
  fields: {
    account: { column: "account", type: "text", sortable: true, normalize: lowercase },
    role: { column: "roleName", type: "text", sortable: true, facet: true },
    contract: { column: "contract", type: "text", sortable: true, normalize: lowercase, facet: true },
    grantedAt: { column: "grantedTime", type: "timestamp", sortable: true },
    grantedBy: { column: "grantedBy", type: "text", normalize: lowercase },
    transactionHash: { column: "transactionHash", type: "text", normalize: lowercase },
  },
  search: ["account", "role", "contract"],
  defaultSort: "grantedAt",
  // Grants of one block keep the chain's order.
  tiebreaker: "ordinal",
  totalFromFacet: "role",
});

/** The role's name where the platform knows its id, else the id itself. */
const roleNameSql = sql<string>`case role ${sql.join(
  KNOWN_ROLES.map(([id, name]) => sql`when ${id} then ${name}`),
  sql` `,
)} else role end`;

/**
 * The roles held now on the system's access manager and its tokens (revoked ones are left out), unpaged and
 * unordered; `accounts` narrows to one participant's wallets.
 */
export function systemRoleAssignments(ledger: LedgerDb, accessManager: string, system: string, accounts?: string[]) {
  return ledger
    .selectFrom((db) => {
      let rows = db
        .selectFrom("roleAssignment")
        .select([
          "account",
          "role",
          "contract",
          "grantedBy",
          "transactionHash",
          "ordinal",
          roleNameSql.as("roleName"),
          sql<Date>`to_timestamp(granted_at)`.as("grantedTime"),
        ])
        .where("active", "=", true)
        .where((eb) =>
          eb.or([
            eb("contract", "=", indexedHex(accessManager)),
            eb("contract", "in", db.selectFrom("token").select("id").where("system", "=", indexedHex(system))),
          ]),
        );
      if (accounts) rows = rows.where("account", "in", accounts.length ? accounts.map(indexedHex) : [indexedHex("0x")]);
      return rows.as("r");
    })
    .selectAll();
}

export type RoleAssignmentRow = Awaited<ReturnType<ReturnType<typeof systemRoleAssignments>["execute"]>>[number];

export function toRoleAssignment(row: RoleAssignmentRow): z.infer<typeof RoleAssignmentSchema> {
  return {
    account: getAddress(row.account),
    role: row.roleName,
    roleId: row.role,
    contract: getAddress(row.contract),
    grantedAt: row.grantedTime.toISOString(),
    grantedBy: getAddress(row.grantedBy),
    transactionHash: row.transactionHash,
  };
}
