// One platform shared by the end-to-end files that need only an organisation of their own: booted by the run's
// global setup on the first file's request (shared-platform-broker.ts), stopped at the end of the run. Each
// such file gets a new organisation on it (its system deployed, a member holding every role, that member's API key),
// so nothing one file does is visible to another, and saves the boot and stop of a platform of its own (~7 s).
// Files that change the chain's or the platform's state for everyone (mining, time, restarts, settings) boot their
// own stack (bootStack). Files that move the chain's clock forward share a second platform (`clock-moving`).
import { inject } from "vitest";
import { ROLES } from "../../host/auth/permissions.ts";
import { createApiKey, grantRoles } from "../../plugins/access/index.ts";
import { loadPlatformConfig } from "../../scripts/platform-context.ts";
import { operator } from "./organizations.ts";
import type { SharedPlatform, SharedPlatformName } from "./shared-platform-broker.ts";
import { stackFacade, type TestStack } from "./stack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared platform's broker (test/support/e2e-global-setup.ts). */
    sharedPlatformUrl: string;
  }
}

/**
 * A new organisation on one of the run's shared platforms (`clock-moving` for a file that moves the chain's clock), as
 * a TestStack: `api` calls with the API key of a member holding every role, `rpc` and the database are the shared
 * ones. `stop` leaves the platform up; `restart` is refused (boot a stack of your own).
 */
export async function organizationStack(name: string, platform: SharedPlatformName = "wall-clock"): Promise<TestStack> {
  // Two files moving one chain's clock at once would move it under each other: each test worker has its own.
  const path = platform === "clock-moving" ? `${platform}/${process.env.VITEST_POOL_ID ?? 0}` : platform;
  const res = await fetch(`${inject("sharedPlatformUrl")}/${path}`);
  if (!res.ok) throw new Error(`the shared platform did not start: ${await res.text()}`);
  const shared = (await res.json()) as SharedPlatform;
  const env = { ...process.env, ...shared.env };
  const base = sharedFacade(shared, env);
  const people = operator(base);
  try {
    const organizationId = await people.organization(name);
    const { userId } = await people.member(organizationId, "owner", "Owner");
    await grantRoles(people.db.platform, { organizationId, userId, roles: ROLES });
    const { key } = await createApiKey(people.db.platform, { organizationId, userId, name, scope: "read-write" });
    base.platform.credentials = { ...base.platform.credentials, organizationId, apiKey: key };
  } finally {
    await people.close();
  }
  await indexedToHead(base);
  return base;
}

/** Until the index has read the chain up to its head now: the new system's contracts and modules readable. */
async function indexedToHead(stack: TestStack, timeoutMs = 60_000) {
  const head = BigInt((await stack.rpc("eth_blockNumber")) as string);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = (await (await fetch(`${stack.platform.baseUrl}/readyz`)).json()) as {
      chains: { indexedBlock: string | number | null }[];
    };
    if (report.chains.every((chain) => chain.indexedBlock !== null && BigInt(chain.indexedBlock) >= head)) return;
    if (Date.now() > deadline) throw new Error(`the index did not reach block ${head} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function sharedFacade(shared: SharedPlatform, env: NodeJS.ProcessEnv): TestStack {
  return stackFacade({
    platform: {
      ...shared.platform,
      credentials: { ...shared.platform.credentials },
      config: loadPlatformConfig(env),
      stop: async () => {}, // the global setup stops it
    },
    dataDir: shared.dataDir,
    env,
    restart: async () => {
      throw new Error("a file on the shared platform cannot restart it: boot a stack of its own (bootStack)");
    },
    stop: async () => {},
  });
}
