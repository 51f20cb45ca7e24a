import { describe, expect, it } from "vitest";
import { ApiError } from "../../host/errors/api-error.ts";
import { chooseOrganization } from "./active-organization.ts";

describe("chooseOrganization", () => {
  it("takes the requested organisation when the person is a member of it", () => {
    expect(chooseOrganization(["a", "b"], "b")).toBe("b");
  });
  it("refuses an organisation the person is not a member of", () => {
    expect(() => chooseOrganization(["a"], "z")).toThrow(ApiError);
    expect(() => chooseOrganization(["a"], "z")).toThrow(/not a member/);
  });
  it("falls back to the first membership, or none", () => {
    expect(chooseOrganization(["a", "a", "b"])).toBe("a");
    expect(chooseOrganization([])).toBeNull();
  });
});
