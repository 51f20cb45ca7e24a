// Operator actions a test needs beyond the bootstrap organisation: people with a role (and their API keys), and
// further organisations with their own system on the chain.
import { loadConfig } from "../../host/config.ts";
import { loadMasterKey } from "../../host/crypto/master-key.ts";
import { createConfiguredCustody } from "../../host/custody/custody-provider.ts";
import type { CustodyAccount } from "../../host/custody/digest-account.ts";
import { type Databases, openDatabases } from "../../host/db/database.ts";
import { createApiKey } from "../../plugins/access/api-key-store.ts";
import { addMember, grantRole } from "../../plugins/access/members.ts";
import { createUser } from "../../plugins/access/users.ts";
import { createOrganization } from "../../plugins/systems/organizations.ts";
import { platformDbUrl, type TestStack } from "./stack.ts";

export interface Operator {
  db: Databases;
  /** An API key (read-write) of a new person holding `role` in the organisation. */
  keyFor(organizationId: string, role: string): Promise<string>;
  /** A new person holding `role`: their id, custody wallet and API key (read-write). */
  member(organizationId: string, role: string, displayName?: string): Promise<Member>;
  /** A new person who signs in with `password` (and `pincode` for chain writes), holding `role`: their id and email. */
  person(
    organizationId: string,
    role: string,
    secrets: { password: string; pincode?: string },
  ): Promise<{ userId: string; email: string }>;
  /** A new organisation whose system on the stack's chain is deployed (waits until it is ready); its id. */
  organization(name: string): Promise<string>;
  /** The organisation's signer wallet (it holds its system's manager roles), to send chain writes the API has no route for. */
  signerAccount(organizationId: string): Promise<CustodyAccount>;
  close(): Promise<void>;
}

export interface Member {
  userId: string;
  wallet: string;
  key: string;
}

export function operator(stack: TestStack): Operator {
  const db = openDatabases(platformDbUrl(stack.env), "ledger", 2);
  const config = loadConfig(stack.env);
  const masterKey = loadMasterKey(config);
  const custody = createConfiguredCustody(config, db.platform, masterKey);
  return {
    db,
    async keyFor(organizationId, role) {
      return (await this.member(organizationId, role)).key;
    },
    async member(organizationId, role, displayName = role) {
      const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
      const { userId } = await createUser(db.platform, masterKey, { email, displayName });
      const { wallet } = await addMember(db.platform, custody, { organizationId, userId, role });
      const { key } = await createApiKey(db.platform, { organizationId, userId, name: role, scope: "read-write" });
      return { userId, wallet: wallet.toLowerCase(), key };
    },
    async person(organizationId, role, secrets) {
      const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
      const { userId } = await createUser(db.platform, masterKey, { email, displayName: role, ...secrets });
      await grantRole(db.platform, { organizationId, userId, role });
      return { userId, email };
    },
    async organization(name) {
      const chainIds = stack.platform.parts.chains.map((chain) => chain.chainId);
      const { organizationId } = await createOrganization(db.platform, custody, {
        name,
        defaultChainId: stack.platform.credentials.chainId,
        chainIds,
      });
      const deadline = Date.now() + 120_000;
      for (;;) {
        const rows = await db.platform
          .selectFrom("organizationChains")
          .select("status")
          .where("organizationId", "=", organizationId)
          .execute();
        const ready = rows.filter((row) => row.status === "ready").length;
        if (ready === chainIds.length) return organizationId;
        if (Date.now() > deadline) throw new Error(`${name} has ${ready} of ${chainIds.length} systems ready`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async signerAccount(organizationId) {
      return custody.signer(organizationId, await custody.primaryAddress(organizationId));
    },
    close: () => db.close(),
  };
}
