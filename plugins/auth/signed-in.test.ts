import { expect, it } from "vitest";
import { signedIn } from "./signed-in.ts";

it("answers the session, the person, the organisation and the expiry in ISO form", () => {
  const expiresAt = new Date("2030-01-02T03:04:05.000Z");
  expect(signedIn({ id: "s1", expiresAt }, "u1", null)).toEqual({
    status: "SIGNED_IN",
    sessionId: "s1",
    userId: "u1",
    organizationId: null,
    expiresAt: "2030-01-02T03:04:05.000Z",
  });
});
