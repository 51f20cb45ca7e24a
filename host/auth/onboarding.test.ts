import { describe, expect, it } from "vitest";
import { missingOnboardingStep } from "./onboarding.ts";

describe("onboarding before a session's chain write", () => {
  it("names the PIN code as the missing step of a user who never set one, with a fix naming how", () => {
    expect(missingOnboardingStep({ pincodeHash: null })).toMatchObject({
      step: "pincode",
      fix: expect.stringContaining("user set-pincode"),
    });
  });

  it("finds nothing missing once the PIN is set", () => {
    expect(missingOnboardingStep({ pincodeHash: "$argon2id$..." })).toBeUndefined();
  });
});
