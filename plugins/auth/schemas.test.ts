import { describe, expect, it } from "vitest";
import { SignInBodySchema, TwoFactorBodySchema } from "./schemas.ts";

describe("SignInBodySchema", () => {
  const body = { email: "ada@example.com", password: "correct horse" };

  it("takes an email and a password, and an organisation to sign in to", () => {
    expect(SignInBodySchema.parse(body)).toEqual(body);
    expect(SignInBodySchema.parse({ ...body, organizationId: "org-1" }).organizationId).toBe("org-1");
  });

  it("refuses a malformed email, an empty password and any other field", () => {
    expect(SignInBodySchema.safeParse({ ...body, email: "ada" }).success).toBe(false);
    expect(SignInBodySchema.safeParse({ ...body, password: "" }).success).toBe(false);
    expect(SignInBodySchema.safeParse({ ...body, role: "admin" }).success).toBe(false);
  });
});

describe("TwoFactorBodySchema", () => {
  it("takes exactly six digits", () => {
    expect(TwoFactorBodySchema.safeParse({ code: "012345" }).success).toBe(true);
    for (const code of ["12345", "1234567", "12345a", " 123456", 123456]) {
      expect(TwoFactorBodySchema.safeParse({ code }).success, String(code)).toBe(false);
    }
  });
});
