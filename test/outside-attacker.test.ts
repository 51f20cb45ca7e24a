// The outside-attacker suite: one stack, one topic a file in test/security/, each declaring its own cases.
import { afterAll, beforeAll } from "vitest";
import type { AttackContext } from "./security/attack-context.ts";
import { roleMatrix } from "./security/role-matrix.ts";
import { operator } from "./support/organizations.ts";
import { bootStack } from "./support/stack.ts";

let context: AttackContext | undefined;
const ctx = (): AttackContext => {
  if (!context) throw new Error("The stack is not booted");
  return context;
};

beforeAll(async () => {
  const stack = await bootStack();
  context = { stack, ops: operator(stack) };
});
afterAll(async () => {
  await context?.ops.close();
  await context?.stack.stop();
});

roleMatrix(ctx);
