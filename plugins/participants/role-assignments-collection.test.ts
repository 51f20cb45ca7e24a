// The role-assignment list's query (the system's access manager and its tokens, active grants, a participant's
// wallets) and its items, without a database.
import { keccak256, toBytes } from "viem";
import { describe, expect, it } from "vitest";
import { parseCollectionQuery } from "../../host/collections/index.ts";
import { compilingOnly } from "../../host/db/compiling-only.ts";
import type { LedgerDb } from "../../host/db/database.ts";
import { ROLE_ASSIGNMENT_COLLECTION, systemRoleAssignments, toRoleAssignment } from "./role-assignments-collection.ts";

const ledger = compilingOnly() as unknown as LedgerDb;

const MANAGER = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const SYSTEM = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("the role-assignment list", () => {
  it("reads the active grants on the access manager and the system's tokens, naming known roles", () => {
    const { sql, parameters } = systemRoleAssignments(ledger, MANAGER, SYSTEM).compile();
    expect(sql).toContain('"active" = $');
    expect(sql).toMatch(/"contract" = \$\d+ or "contract" in \(select "id" from "token" where "system" = \$\d+\)/);
    expect(parameters).toEqual(expect.arrayContaining([MANAGER.toLowerCase(), SYSTEM.toLowerCase()]));
    expect(parameters).toEqual(
      expect.arrayContaining([keccak256(toBytes("SYSTEM_MANAGER_ROLE")), "SYSTEM_MANAGER_ROLE"]),
    );
    expect(sql).not.toContain('"account" in');
  });

  it("narrows to a participant's wallets (none: nothing)", () => {
    const mine = systemRoleAssignments(ledger, MANAGER, SYSTEM, [WALLET]).compile();
    expect(mine.sql).toContain('"account" in ($');
    expect(mine.parameters).toContain(WALLET.toLowerCase());
    expect(systemRoleAssignments(ledger, MANAGER, SYSTEM, []).compile().parameters).toContain("0x");
  });

  it("filters by account, role and contract in any case, oldest grant first by default", () => {
    const parsed = parseCollectionQuery(
      new URLSearchParams(`filter[account]=${WALLET}&filter[role]=SYSTEM_MANAGER_ROLE&filter[contract]=${MANAGER}`),
      ROLE_ASSIGNMENT_COLLECTION,
    );
    expect(parsed.filters).toEqual([
      { field: "account", operator: "eq", value: WALLET.toLowerCase() },
      { field: "role", operator: "eq", value: "SYSTEM_MANAGER_ROLE" },
      { field: "contract", operator: "eq", value: MANAGER.toLowerCase() },
    ]);
    expect(parsed.sort).toEqual({ field: "grantedAt", direction: "asc" });
  });

  it("answers checksummed addresses and the role's name and id", () => {
    const roleId = keccak256(toBytes("SYSTEM_MANAGER_ROLE"));
    const item = toRoleAssignment({
      account: WALLET.toLowerCase() as `0x${string}`,
      role: roleId,
      roleName: "SYSTEM_MANAGER_ROLE",
      contract: MANAGER.toLowerCase() as `0x${string}`,
      grantedBy: SYSTEM.toLowerCase() as `0x${string}`,
      transactionHash: `0x${"ab".repeat(32)}`,
      ordinal: "1",
      grantedTime: new Date(1_700_000_000_000),
    });
    expect(item).toEqual({
      account: WALLET,
      role: "SYSTEM_MANAGER_ROLE",
      roleId,
      contract: MANAGER,
      grantedAt: "2023-11-14T22:13:20.000Z",
      grantedBy: SYSTEM,
      transactionHash: `0x${"ab".repeat(32)}`,
    });
  });
});
