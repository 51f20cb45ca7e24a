// What every outside-attacker topic (test/security/<topic>.ts) gets from the shared runner: one booted stack and an
// operator on its database.
import type { Operator } from "../support/organizations.ts";
import type { TestStack } from "../support/stack.ts";

export interface AttackContext {
  stack: TestStack;
  ops: Operator;
}
