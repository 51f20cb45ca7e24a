import { describe, expect, it } from "vitest";
import { hasPermission, ROLES, registeredPermissions, rolesGranting } from "./permissions.ts";

describe("roles and permissions", () => {
  it("grants only through the table", () => {
    expect(hasPermission(["owner"], "token:create")).toBe(true);
    expect(hasPermission(["member"], "token:create")).toBe(false);
    expect(hasPermission(["member", "supplyManager"], "token:mint")).toBe(true);
    expect(rolesGranting("monitoring:read")).toEqual(["owner", "admin"]);
  });

  it("names only known roles", () => {
    for (const [, roles] of registeredPermissions()) for (const role of roles) expect(ROLES).toContain(role);
  });
});
