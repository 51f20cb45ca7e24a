// What the auth routes share, made once per plugin start: the platform database, the lockout policies and the failed
// credential counter, how the caller's address is read, and the master key that unseals second-factor secrets.
import type { Context } from "hono";
import { type CredentialFailures, createCredentialFailures } from "../../host/auth/credential-failures.ts";
import { type LockoutPolicies, lockoutPolicies } from "../../host/auth/lockout-policies.ts";
import type { Capabilities } from "../../host/capabilities.ts";
import type { PlatformDb } from "../../host/db/database.ts";
import { clientAddress } from "../../host/http/client-address.ts";
import type { PluginContext } from "../../host/plugin.ts";

export interface AuthRouteDeps {
  db: PlatformDb;
  policies: LockoutPolicies;
  credentialFailures: CredentialFailures;
  addressOf: (c: Context) => string;
  secrets: Capabilities["secrets"];
}

export function authRouteDeps(ctx: PluginContext<"secrets">): AuthRouteDeps {
  const db = ctx.db.platform;
  const policies = lockoutPolicies(ctx.config);
  return {
    db,
    policies,
    credentialFailures: createCredentialFailures(db, policies.credential),
    addressOf: (c) => clientAddress(c, ctx.config.TRUST_PROXY),
    secrets: ctx.secrets,
  };
}
