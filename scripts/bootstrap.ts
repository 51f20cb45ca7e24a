// First start: a local organisation, its owner (holding every role, and the platform operator), its custody seed and a
// read-write API key (credentials.json, mode 0600). Every start: the local owner holds every role and, while no one
// else is, is the platform operator (data dirs of older versions), the
// organisation's system on the chain is ready (deployed again after a chain reset), and every member has a custody
// wallet.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rolesOf } from "../host/auth/memberships.ts";
import { ROLES } from "../host/auth/permissions.ts";
import type { ServedChain } from "../host/chain/served-chains.ts";
import { stateOf } from "../host/custody/activation-gate.ts";
import type { HostContext } from "../host/plugin.ts";
import {
  addMember,
  createApiKey,
  createUser,
  grantPlatformRole,
  grantRoles,
  platformRoleHolders,
  provisionMissingMemberWallets,
} from "../plugins/access/index.ts";
import { createOrganization, requestSystemProvisioning } from "../plugins/systems/index.ts";
import { waitFor } from "./infra/child-process.ts";

export interface Credentials {
  baseUrl: string;
  organizationId: string;
  apiKey: string;
  rpcUrl: string;
  chainId: number;
}

export function credentialsPath(dataDir: string) {
  return join(dataDir, "credentials.json");
}

function writeCredentials(path: string, credentials: Credentials) {
  writeFileSync(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

const localOwnerEmail = (organizationId: string) => `owner+${organizationId}@localhost`;

/**
 * The first-start owner holds every role (see createLocalOrganization). A data folder from before that rule (its owner
 * holds `owner` alone) is brought up to it; roles changed on purpose since (API or CLI) are left as they are.
 */
async function upgradeLegacyLocalOwner(ctx: HostContext, organizationId: string) {
  const db = ctx.db.platform;
  const owner = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", localOwnerEmail(organizationId))
    .executeTakeFirst();
  if (!owner) return;
  const held = await rolesOf(db, owner.id, organizationId);
  if (held.length === 1 && held[0] === "owner")
    await grantRoles(db, { organizationId, userId: owner.id, roles: ROLES });
}

/** A data folder from before platform roles has no platform operator: its local owner becomes it. */
async function upgradeLegacyPlatformOperator(ctx: HostContext, organizationId: string) {
  const db = ctx.db.platform;
  if ((await platformRoleHolders(db, "platformOperator")).length > 0) return;
  const owner = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", localOwnerEmail(organizationId))
    .executeTakeFirst();
  if (owner) await grantPlatformRole(db, owner.id, "platformOperator");
}

async function createLocalOrganization(ctx: HostContext, baseUrl: string, rpcUrl: string): Promise<Credentials> {
  const db = ctx.db.platform;
  const { organizationId } = await createOrganization(db, ctx.custody, {
    name: "Local organisation",
    defaultChainId: ctx.chains.primary.chainId,
    chainIds: ctx.chains.ids,
    gatesReadiness: true, // the first write after `ready` must find its system
  });
  const { userId } = await createUser(db, ctx.secrets.masterKey, {
    email: localOwnerEmail(organizationId),
    displayName: "Owner",
  });
  await addMember(db, ctx.custody, { organizationId, userId, role: "owner" });
  // Every role of the permission table, so the printed key reads and writes everything README shows.
  await grantRoles(db, { organizationId, userId, roles: ROLES });
  // Whoever starts the platform operates it: the shared workers' routes (npm run cli -- platform-operator ...).
  await grantPlatformRole(db, userId, "platformOperator");
  const { key } = await createApiKey(db, { organizationId, userId, name: "bootstrap", scope: "read-write" });
  return { baseUrl, organizationId, apiKey: key, rpcUrl, chainId: ctx.chains.primary.chainId };
}

async function systemReady(ctx: HostContext, organizationId: string, chain: ServedChain): Promise<boolean> {
  const row = await ctx.db.platform
    .selectFrom("organizationChains")
    .select(["status", "systemAddress"])
    .where("organizationId", "=", organizationId)
    .where("chainId", "=", chain.chainId)
    .executeTakeFirst();
  if (row?.status !== "ready" || !row.systemAddress) return false;
  const code = await chain.client.getCode({ address: row.systemAddress as `0x${string}` });
  return !!code && code !== "0x";
}

/**
 * Every organisation's system on every served chain: one created before a chain was added to the configuration gets
 * its system there now, in the background (its requests there answer CHAIN_NOT_READY until it is ready).
 */
async function provisionMissingSystems(ctx: HostContext): Promise<void> {
  const rows = await ctx.db.platform
    .selectFrom("organizations as o")
    .leftJoin("organizationChains as oc", "oc.organizationId", "o.id")
    .select(["o.id", "oc.chainId"])
    .execute();
  const has = new Map<string, Set<number>>();
  for (const { id, chainId } of rows) {
    const chains = has.get(id) ?? new Set<number>();
    if (chainId !== null) chains.add(chainId);
    has.set(id, chains);
  }
  for (const [organizationId, chains] of has) {
    for (const chainId of ctx.chains.ids.filter((id) => !chains.has(id))) {
      await requestSystemProvisioning(ctx.db.platform, organizationId, chainId);
    }
  }
}

export async function bootstrap(input: {
  ctx: HostContext;
  baseUrl: string;
  rpcUrl: string;
  /** Why to stop waiting for the systems (the start was stopped), else undefined. */
  stopped?: () => string | undefined;
}): Promise<{ credentials: Credentials; created: boolean }> {
  const { ctx, baseUrl, rpcUrl } = input;
  const path = credentialsPath(ctx.config.dataDir);
  let credentials: Credentials | undefined = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
  const known =
    credentials &&
    (await ctx.db.platform
      .selectFrom("organizations")
      .select("id")
      .where("id", "=", credentials.organizationId)
      .executeTakeFirst());
  let created = false;
  if (!credentials || !known) {
    credentials = await createLocalOrganization(ctx, baseUrl, rpcUrl);
    writeCredentials(path, credentials);
    created = true;
  } else if (credentials.baseUrl !== baseUrl || credentials.rpcUrl !== rpcUrl) {
    credentials = { ...credentials, baseUrl, rpcUrl };
    writeCredentials(path, credentials);
  }
  const organizationId = credentials.organizationId;
  if (!created) {
    await upgradeLegacyLocalOwner(ctx, organizationId);
    await upgradeLegacyPlatformOperator(ctx, organizationId);
    // A data folder from before the readiness gate: its local organisation gates readiness from now on.
    await ctx.db.platform
      .updateTable("organizations")
      .set({ gatesReadiness: true })
      .where("id", "=", organizationId)
      .execute();
  }
  await provisionMissingMemberWallets(ctx.db.platform, ctx.custody);
  // Its system on every served chain (again after a chain reset), deployed side by side.
  const missing = [];
  for (const chain of ctx.chains.all()) if (!(await systemReady(ctx, organizationId, chain))) missing.push(chain);
  for (const chain of missing) await requestSystemProvisioning(ctx.db.platform, organizationId, chain.chainId);
  await provisionMissingSystems(ctx);
  if (missing.length > 0 && (await awaitsCustodyActivation(ctx, organizationId))) {
    // Its deployment is signed once custodians activate its partition (docs/custody.md): the start does not wait.
    ctx.logger.warn("the local organisation's system deploys once its custody partition is activated", {
      organizationId,
    });
    return { credentials, created };
  }
  for (const chain of missing) {
    await waitFor(
      `the organisation's system deployment on chain ${chain.chainId}`,
      () => systemReady(ctx, organizationId, chain),
      120_000,
      100,
      input.stopped,
    );
  }
  return { credentials, created };
}

async function awaitsCustodyActivation(ctx: HostContext, organizationId: string): Promise<boolean> {
  if ((await ctx.custody.providerOf(organizationId)) !== "pkcs11") return false;
  return (await stateOf(ctx.db.platform, organizationId)) !== "active";
}
