// The spec's account-abstraction switches, checked before anything runs through (or provisions) a smart wallet:
// the platform's (ACCOUNT_ABSTRACTION_ENABLED), then the organisation's executor policy.
import { ApiError } from "../../host/errors/api-error.ts";
import type { PluginContext } from "../../host/plugin.ts";

export async function assertAccountAbstractionAllowed(ctx: PluginContext, organizationId: string): Promise<void> {
  if (!ctx.config.ACCOUNT_ABSTRACTION_ENABLED) throw new ApiError("X_EXECUTOR_AA_DISABLED_GLOBALLY");
  const org = await ctx.db.platform
    .selectFrom("organizations")
    .select("accountAbstractionEnabled")
    .where("id", "=", organizationId)
    .executeTakeFirstOrThrow();
  if (!org.accountAbstractionEnabled) throw new ApiError("X_EXECUTOR_AA_DISABLED_FOR_ORG");
}
