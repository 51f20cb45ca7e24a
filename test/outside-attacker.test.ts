// The outside-attacker suite of issue #34 on one booted stack: each topic's cases (test/security/<topic>.ts) run
// against it in turn, as an outside tester would try them (one role per key, read and read-write keys, sessions).
import { afterAll, beforeAll, describe } from "vitest";
import { PAYMASTER_ATTACK_ENV, paymasterAttacks } from "./security/paymaster.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { bootStack, type TestStack } from "./support/stack.ts";

describe("outside attacker", () => {
  let stack: TestStack;
  let ops: Operator;

  beforeAll(async () => {
    stack = await bootStack({ ...PAYMASTER_ATTACK_ENV });
    ops = operator(stack);
  }, 240_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  const context = () => ({ stack, ops });
  paymasterAttacks(context);
});
