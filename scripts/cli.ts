// `npm run cli -- <resource> <action> [--flags]`: how an operator provisions access without a running host (the API's
// own routes are /api/v2/api-keys and /api/v2/organization/members; both use the same functions, plugins/access and plugins/systems).
// Talks to the platform's database (DATABASE_URL, else the embedded server of a running `npm start`).
import { parseArgs } from "node:util";
import { loadConfig } from "../host/config.ts";
import { loadMasterKey } from "../host/crypto/master-key.ts";
import { createConfiguredCustody } from "../host/custody/custody-provider.ts";
import { openDatabases } from "../host/db/database.ts";
import { registerErrors } from "../host/errors/registry.ts";
import access, {
  addMember,
  createApiKey,
  createUser,
  grantPlatformRole,
  listApiKeys,
  platformRoleHolders,
  revokeApiKey,
  revokePlatformRole,
  setMemberRoles,
  setUserPincode,
} from "../plugins/access/index.ts";
import custody, { requestKeyMigration } from "../plugins/custody/index.ts";
import systems, { createOrganization } from "../plugins/systems/index.ts";

// The error codes the operator functions answer with (e.g. the access plugin's last owner), without loading every
// plugin: each command is a process of its own and starts in a moment.
registerErrors(new Map(Object.entries({ ...access.errors, ...systems.errors, ...custody.errors })));

const USAGE = `Usage: npm run cli -- <command> [options]

  org create   --name NAME [--chain-id ID]          create an organisation (its system is deployed by the running platform)
  user create  --email EMAIL --name NAME [--password P] [--pincode 123456] [--totp]
  user set-pincode --user USER_ID --pincode 123456  set the PIN a session's chain writes are confirmed with
  role grant   --org ORG_ID --user USER_ID --role ROLE
  role set     --org ORG_ID --user USER_ID --roles ROLE[,ROLE...]   replace a member's roles (the last owner keeps owner)
  key create   --org ORG_ID --user USER_ID [--scope read|read-write] [--expires ISO_DATE] [--name NAME]
  key list     [--org ORG_ID]
  key revoke   --id KEY_ID
  platform-operator grant  --user USER_ID   make a user a platform operator (the shared workers' routes)
  platform-operator revoke --user USER_ID   take it back (the last platform operator keeps it)
  platform-operator list
  custody migrate --org ORG_ID   move the organisation's keys from software custody to the HSM (CUSTODY_PROVIDER=pkcs11);
                                 the running platform's workers do it; repeat to read its progress or resume a failed one

Roles: owner, admin, systemManager, tokenManager, supplyManager, identityManager, claimIssuer, auditor, gasManager, member.
platformOperator is a platform-level role, held by a user whatever the organisation; no organisation role grants it.
Output is JSON on stdout. An API key is shown once and cannot be recovered.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    "chain-id": { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    pincode: { type: "string" },
    totp: { type: "boolean" },
    org: { type: "string" },
    user: { type: "string" },
    role: { type: "string" },
    roles: { type: "string" },
    scope: { type: "string" },
    expires: { type: "string" },
    id: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help || positionals.length < 2) fail(values.help ? "" : "A command is required.");
const need = (key: keyof typeof values): string => {
  const value = values[key];
  if (typeof value !== "string" || value === "") fail(`--${key} is required.`);
  return value;
};

const config = loadConfig();
const url = config.DATABASE_URL ?? `postgres://platform:platform@127.0.0.1:${config.EMBEDDED_POSTGRES_PORT}/platform`;
const db = openDatabases(url, config.INDEX_VIEWS_SCHEMA, 2);
const out = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

try {
  const [resource, action] = positionals;
  switch (`${resource} ${action}`) {
    case "org create": {
      const custody = createConfiguredCustody(config, db.platform, loadMasterKey(config));
      // Its systems on every configured chain whose id the configuration names; its default network: --chain-id or
      // the primary chain.
      const chainIds = config.chains.flatMap((chain) => (chain.chainId === undefined ? [] : [chain.chainId]));
      const chainId = Number(values["chain-id"] ?? chainIds[0] ?? 31337);
      out(await createOrganization(db.platform, custody, { name: need("name"), defaultChainId: chainId, chainIds }));
      break;
    }
    case "user create": {
      if (values.pincode !== undefined && !/^\d{6}$/.test(values.pincode)) fail("--pincode must be 6 digits.");
      out(
        await createUser(db.platform, loadMasterKey(config), {
          email: need("email"),
          displayName: need("name"),
          password: values.password,
          pincode: values.pincode,
          totp: values.totp,
        }),
      );
      break;
    }
    case "user set-pincode": {
      const pincode = need("pincode");
      if (!/^\d{6}$/.test(pincode)) fail("--pincode must be 6 digits.");
      out(await setUserPincode(db.platform, { userId: need("user"), pincode }));
      break;
    }
    case "role grant":
      out({
        granted: values.role,
        ...(await addMember(db.platform, createConfiguredCustody(config, db.platform, loadMasterKey(config)), {
          organizationId: need("org"),
          userId: need("user"),
          role: need("role"),
        })),
      });
      break;
    case "role set":
      out({
        roles: need("roles").split(","),
        ...(await setMemberRoles(db.platform, createConfiguredCustody(config, db.platform, loadMasterKey(config)), {
          organizationId: need("org"),
          userId: need("user"),
          roles: need("roles").split(","),
        })),
      });
      break;
    case "key create": {
      const scope = values.scope ?? "read-write";
      if (scope !== "read" && scope !== "read-write") fail("--scope must be read or read-write.");
      const expiresAt = values.expires ? new Date(values.expires) : undefined;
      if (expiresAt && Number.isNaN(expiresAt.getTime())) fail("--expires must be an ISO 8601 date.");
      out(
        await createApiKey(db.platform, {
          organizationId: need("org"),
          userId: need("user"),
          name: values.name ?? "cli",
          scope,
          expiresAt,
        }),
      );
      break;
    }
    case "key list":
      out(await listApiKeys(db.platform, values.org));
      break;
    case "key revoke":
      out({ revoked: (await revokeApiKey(db.platform, need("id")))?.revokedAt != null });
      break;
    case "platform-operator grant":
      out(await grantPlatformRole(db.platform, need("user"), "platformOperator"));
      break;
    case "platform-operator revoke":
      out(await revokePlatformRole(db.platform, need("user"), "platformOperator"));
      break;
    case "platform-operator list":
      out(await platformRoleHolders(db.platform, "platformOperator"));
      break;
    case "custody migrate": {
      const { migration, started } = await requestKeyMigration(db.platform, {
        organizationId: need("org"),
        requestedBy: "cli",
        hsm: config.CUSTODY_PROVIDER === "pkcs11",
      });
      const { detail, ...row } = migration;
      out({ started, ...row, keys: detail.keys ?? [], transactionIds: detail.requests ?? {} });
      break;
    }
    default:
      fail(`Unknown command: ${resource} ${action}`);
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await db.close();
}
