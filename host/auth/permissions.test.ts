import { describe, expect, it } from "vitest";
import { grantingRoles, hasPermission, isGranted, ROLES, registeredPermissions, rolesGranting } from "./permissions.ts";

describe("roles and permissions", () => {
  it("grants only through the table", () => {
    expect(hasPermission(["owner"], "token:create")).toBe(true);
    expect(hasPermission(["member"], "token:create")).toBe(false);
    expect(hasPermission(["member", "supplyManager"], "token:mint")).toBe(true);
    expect(rolesGranting("monitoring:read")).toEqual(["owner", "admin"]);
  });

  it("grants a platform permission through platform roles only, never an organisation role", () => {
    expect(hasPermission(ROLES, "platform:operate")).toBe(false);
    expect(isGranted([...ROLES, "platformOperator"], [], "platform:operate")).toBe(false);
    expect(isGranted([], ["platformOperator"], "platform:operate")).toBe(true);
    expect(isGranted(["member"], ["platformOperator"], "token:create")).toBe(false);
    expect(grantingRoles("platform:operate")).toEqual(["platformOperator"]);
  });

  it("names only known roles", () => {
    for (const [, roles] of registeredPermissions()) for (const role of roles) expect(ROLES).toContain(role);
  });
});
