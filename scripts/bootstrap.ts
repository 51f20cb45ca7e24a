// First start: a local organisation, its owner, its custody seed and a read-write API key; on every start,
// the organisation's system on the chain (re-created if the chain was reset).
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { v7 as uuidv7 } from "uuid";
import { type Address, createWalletClient, encodeFunctionData, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { SystemFactoryAbi } from "../abis/SystemFactory.ts";
import { generateApiKey } from "../host/auth/api-keys.ts";
import type { PluginContext } from "../host/plugin.ts";
import { waitFor } from "./infra/child-process.ts";

export interface Credentials {
  baseUrl: string;
  organizationId: string;
  apiKey: string;
  rpcUrl: string;
  chainId: number;
}

interface BootstrapInput {
  ctx: PluginContext;
  baseUrl: string;
  rpcUrl: string;
  systemFactory: Address;
  funderKey: Hex;
}

export function credentialsPath(dataDir: string) {
  return join(dataDir, "credentials.json");
}

async function createLocalOrganization({ ctx, baseUrl, rpcUrl }: BootstrapInput): Promise<Credentials> {
  const db = ctx.db.platform;
  const organizationId = uuidv7();
  const userId = uuidv7();
  const key = generateApiKey();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("organizations")
      .values({ id: organizationId, name: "Local organisation", defaultChainId: ctx.chain.chainId })
      .execute();
    await trx
      .insertInto("users")
      .values({ id: userId, email: `owner+${organizationId}@localhost`, displayName: "Owner" })
      .execute();
    await trx.insertInto("memberships").values({ organizationId, userId, role: "owner" }).execute();
    await trx
      .insertInto("apiKeys")
      .values({
        id: uuidv7(),
        organizationId,
        userId,
        name: "bootstrap",
        keyHash: key.hash,
        keyPrefix: key.displayPrefix,
        scope: "read-write",
      })
      .execute();
  });
  await ctx.custody.provisionOrganization(organizationId);
  return { baseUrl, organizationId, apiKey: key.key, rpcUrl, chainId: ctx.chain.chainId };
}

async function fundSigner(input: BootstrapInput, signer: Address) {
  const { client, chain } = input.ctx.chain;
  const wanted = input.ctx.config.ORG_FUNDING_WEI;
  if ((await client.getBalance({ address: signer })) >= wanted / 2n) return;
  const wallet = createWalletClient({
    account: privateKeyToAccount(input.funderKey),
    chain,
    transport: http(input.rpcUrl),
  });
  const hash = await wallet.sendTransaction({ to: signer, value: wanted });
  await client.waitForTransactionReceipt({ hash });
}

/** Makes sure the organisation has a ready system on the chain, deploying it through the transaction pipeline. */
async function ensureSystem(input: BootstrapInput, organizationId: string) {
  const { ctx } = input;
  const db = ctx.db.platform;
  const chainId = ctx.chain.chainId;
  const existing = await db
    .selectFrom("organizationChains")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .where("chainId", "=", chainId)
    .executeTakeFirst();
  const signer = await ctx.custody.primaryAddress(organizationId);
  const deployed = existing?.systemAddress
    ? await ctx.chain.client.getCode({ address: existing.systemAddress as Address })
    : undefined;
  if (existing?.status === "ready" && deployed && deployed !== "0x") return;

  await fundSigner(input, signer as Address);
  if (existing?.status !== "pending") {
    await db
      .deleteFrom("organizationChains")
      .where("organizationId", "=", organizationId)
      .where("chainId", "=", chainId)
      .execute();
    await db
      .insertInto("organizationChains")
      .values({ organizationId, chainId, status: "pending", systemAddress: null, tokenFactoryAddress: null })
      .execute();
    await ctx.mutations.submit({
      organizationId,
      chainId,
      kind: "system.create",
      to: input.systemFactory,
      data: encodeFunctionData({ abi: SystemFactoryAbi, functionName: "createSystem", args: [signer as Address] }),
      createdBy: "platform",
    });
  }
  await waitFor(
    "the organisation's system deployment",
    async () =>
      (
        await db
          .selectFrom("organizationChains")
          .select("status")
          .where("organizationId", "=", organizationId)
          .where("chainId", "=", chainId)
          .executeTakeFirstOrThrow()
      ).status === "ready",
    120_000,
    100,
  );
}

export async function bootstrap(input: BootstrapInput): Promise<{ credentials: Credentials; created: boolean }> {
  const path = credentialsPath(input.ctx.config.dataDir);
  let credentials: Credentials | undefined = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
  const known =
    credentials &&
    (await input.ctx.db.platform
      .selectFrom("organizations")
      .select("id")
      .where("id", "=", credentials.organizationId)
      .executeTakeFirst());
  let created = false;
  if (!credentials || !known) {
    credentials = await createLocalOrganization(input);
    writeFileSync(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
    created = true;
  } else if (credentials.baseUrl !== input.baseUrl) {
    credentials = { ...credentials, baseUrl: input.baseUrl, rpcUrl: input.rpcUrl };
    writeFileSync(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  }
  await ensureSystem(input, credentials.organizationId);
  return { credentials, created };
}
