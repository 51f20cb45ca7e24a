// Issue #37's figure: mints per second through the API to COMPLETED with keys in an HSM (pkcs11 over SoftHSM2) beside
// software custody, in the same run on one stack (a block per transaction), as a ratio. The first start's organisation
// keeps software custody; the platform is restarted with CUSTODY_PROVIDER=pkcs11 and a second organisation's keys are
// generated in the token, its partition activated by a custodian for the run (CUSTODY_ACTIVATION_SECONDS below).
import pg from "pg";
import type { Address } from "viem";
import { createApiKey } from "../plugins/access/index.ts";
import { operator } from "../test/support/organizations.ts";
import { createTestToken } from "../test/support/softhsm.ts";
import { bootStack, json, type TestStack } from "../test/support/stack.ts";
import { timedApiMints } from "./api-mints.ts";

const MINTS = Number(process.env.BENCH_MINTS ?? 400);
const WARMUP_MINTS = Number(process.env.BENCH_WARMUP_MINTS ?? 200);
const ROUNDS = 3;

export async function benchCustodyThroughput(): Promise<void> {
  const hsm = createTestToken("bench-hsm");
  process.env.SOFTHSM2_CONF = hsm.conf;
  const stack = await bootStack({
    ANVIL_MINING: "instant",
    API_KEY_RATE_LIMIT: "100000000",
    WORKER_CONCURRENCY: "8",
    CUSTODY_ACTIVATION_SECONDS: "3600",
  });
  const db = new pg.Client({
    connectionString: `postgres://platform:platform@127.0.0.1:${stack.env.EMBEDDED_POSTGRES_PORT}/platform`,
  });
  try {
    Object.assign(stack.env, hsm.env);
    await stack.restart();
    const ops = operator(stack);
    // Its system deploys once a custodian of its own has activated its partition (quorum 1, the default).
    const ready = ops.organization("Bench HSM");
    let hsmOrganization: string | undefined;
    while (!hsmOrganization) {
      const row = await ops.db.platform
        .selectFrom("organizations")
        .select("id")
        .where("name", "=", "Bench HSM")
        .executeTakeFirst();
      hsmOrganization = row?.id;
      if (!hsmOrganization) await new Promise((r) => setTimeout(r, 50));
    }
    const { userId } = await ops.person(hsmOrganization, "custodian", {
      password: "bench bench bench",
      pincode: "135790",
    });
    const custodian = (
      await createApiKey(ops.db.platform, { organizationId: hsmOrganization, userId, name: "c", scope: "read-write" })
    ).key;
    const partition = (await json(await stack.api("/api/v2/custody/partitions", { key: custodian }))).data[0];
    const approved = await stack.api(`/api/v2/custody/partitions/${partition.id}/activation-approvals`, {
      method: "POST",
      key: custodian,
      body: JSON.stringify({ walletVerification: { verificationType: "PINCODE", secretVerificationCode: "135790" } }),
    });
    if (approved.status !== 200) throw new Error(`the activation answered ${approved.status}`);
    await ready;
    const sides = {
      software: { key: stack.platform.credentials.apiKey },
      pkcs11: { key: await ops.keyFor(hsmOrganization, "owner") },
    };
    await ops.close();
    await db.connect();
    const tokens = {
      software: await createToken(stack, sides.software.key),
      pkcs11: await createToken(stack, sides.pkcs11.key),
    };
    const run = async (side: keyof typeof sides, mints: number) =>
      mints /
      (await timedApiMints(db, {
        baseUrl: stack.platform.baseUrl,
        apiKey: sides[side].key,
        token: tokens[side],
        mints,
      }));
    await run("software", WARMUP_MINTS);
    await run("pkcs11", WARMUP_MINTS);
    // Alternating rounds, each side's median (the machine is shared).
    const rates = { software: [] as number[], pkcs11: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      rates.software.push(await run("software", MINTS));
      rates.pkcs11.push(await run("pkcs11", MINTS));
    }
    const median = (side: keyof typeof rates) => [...rates[side]].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
    const show = (side: keyof typeof rates) => rates[side].map((r) => r.toFixed(1)).join(", ");
    console.log("custody throughput (issue #37): POST mint to COMPLETED, 32 clients, a block per transaction");
    console.log(`  software (sealed seed): ${median("software").toFixed(1)} mints/s (rounds ${show("software")})`);
    console.log(`  pkcs11 (SoftHSM2): ${median("pkcs11").toFixed(1)} mints/s (rounds ${show("pkcs11")})`);
    console.log(`  pkcs11/software ratio: ${(median("pkcs11") / median("software")).toFixed(2)} (target >= 0.8)`);
  } finally {
    await db.end().catch(() => undefined);
    await stack.stop();
    hsm.remove();
  }
}

async function createToken(stack: TestStack, key: string): Promise<Address> {
  const res = await stack.api("/api/v2/tokens", {
    method: "POST",
    key,
    headers: { prefer: "wait=60" },
    body: JSON.stringify({ templateId: "deposit", name: "Bench", symbol: "BNCH" }),
  });
  if (res.status !== 200) throw new Error(`token creation answered ${res.status}: ${await res.text()}`);
  return (await json(res)).data.tokenAddress as Address;
}
