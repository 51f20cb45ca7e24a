import { describe, expect, it } from "vitest";
import type { PluginContext } from "../../host/plugin.ts";
import { assertAccountAbstractionAllowed } from "./account-abstraction.ts";

/** A context whose organisation row says `enabled` (the query builder reduced to what the check calls). */
const contextWith = (platform: boolean, enabled: boolean) => {
  const query = {
    select: () => query,
    where: () => query,
    executeTakeFirstOrThrow: async () => ({ accountAbstractionEnabled: enabled }),
  };
  return {
    config: { ACCOUNT_ABSTRACTION_ENABLED: platform },
    db: { platform: { selectFrom: () => query } },
  } as unknown as PluginContext;
};

describe("assertAccountAbstractionAllowed", () => {
  it("refuses with the platform's switch first, then the organisation's policy", async () => {
    await expect(assertAccountAbstractionAllowed(contextWith(false, true), "org")).rejects.toMatchObject({
      code: "X_EXECUTOR_AA_DISABLED_GLOBALLY",
      status: 403,
    });
    await expect(assertAccountAbstractionAllowed(contextWith(true, false), "org")).rejects.toMatchObject({
      code: "X_EXECUTOR_AA_DISABLED_FOR_ORG",
      status: 403,
    });
    await expect(assertAccountAbstractionAllowed(contextWith(true, true), "org")).resolves.toBeUndefined();
  });
});
