// The outside attacker's view of one running stack, two organisations with their people: each topic in
// test/security/ declares its own cases (metrics, the edge, …) and reads the stack through a getter. One stack
// for all of them: each new e2e file costs a boot.
import { afterAll, beforeAll, describe } from "vitest";
import type { AttackContext } from "./security/context.ts";
import { edgeAttacks } from "./security/edge.ts";
import { metricsAttacks } from "./security/metrics.ts";
import { operator } from "./support/organizations.ts";
import { bootStack } from "./support/stack.ts";

describe("an outside attacker", () => {
  let context: AttackContext | undefined;
  const ctx = (): AttackContext => {
    if (!context) throw new Error("the attack stack did not boot");
    return context;
  };

  beforeAll(async () => {
    const stack = await bootStack();
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

  metricsAttacks(ctx);
  edgeAttacks(ctx);
});
