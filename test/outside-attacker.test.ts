// The outside attacker's view of one running stack, two organisations with their people: each topic in
// test/security/ declares its own cases (CSRF, webhook targets, roles, the paymaster, metrics, the edge) and reads
// the stack through a getter. One stack for all of them: each new e2e file costs a boot.
import { afterAll, beforeAll, describe } from "vitest";
import type { AttackContext } from "./security/context.ts";
import { csrfAttacks } from "./security/csrf.ts";
import { edgeAttacks } from "./security/edge.ts";
import { metricsAttacks } from "./security/metrics.ts";
import { PAYMASTER_ATTACK_ENV, paymasterAttacks } from "./security/paymaster.ts";
import { roleMatrix } from "./security/role-matrix.ts";
import { webhookTargetAttacks } from "./security/webhook-targets.ts";
import { operator } from "./support/organizations.ts";
import { bootStack } from "./support/stack.ts";

describe("an outside attacker", () => {
  let context: AttackContext | undefined;
  const ctx = (): AttackContext => {
    if (!context) throw new Error("the attack stack did not boot");
    return context;
  };

  beforeAll(async () => {
    const stack = await bootStack({ ...PAYMASTER_ATTACK_ENV });
    const op = operator(stack);
    context = { stack, op, orgA: { id: "", ownerKey: "" }, orgB: { id: "", ownerKey: "" } };
    const orgA = stack.platform.credentials.organizationId;
    const orgB = await op.organization("Attacker B");
    context.orgA = { id: orgA, ownerKey: stack.platform.credentials.apiKey };
    context.orgB = { id: orgB, ownerKey: await op.keyFor(orgB, "owner") };
  }, 240_000);

  afterAll(async () => {
    await context?.op.close();
    await context?.stack.stop();
  });

  csrfAttacks(ctx);
  webhookTargetAttacks(ctx);
  roleMatrix(ctx);
  paymasterAttacks(ctx);
  metricsAttacks(ctx);
  edgeAttacks(ctx);
});
