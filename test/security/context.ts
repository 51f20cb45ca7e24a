// What every outside-attacker topic (test/security/<topic>.ts) works against: one stack, two organisations, and the
// operator to make people with a role. Built once by test/outside-attacker.test.ts; topics read it through a getter,
// since it exists only after the runner's beforeAll.
import type { Operator } from "../support/organizations.ts";
import type { TestStack } from "../support/stack.ts";

export interface AttackOrganization {
  id: string;
  /** A read-write API key of the organisation's owner. */
  ownerKey: string;
}

export interface AttackContext {
  stack: TestStack;
  op: Operator;
  /** The bootstrap organisation (the stack's credentials). */
  orgA: AttackOrganization;
  /** A second organisation with its own system on the chain. */
  orgB: AttackOrganization;
}

export type AttackContextGetter = () => AttackContext;

/** Signs a person in through /api/rpc from the API's own origin, as the browser app does; returns its session cookie. */
export async function signInCookie(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/rpc/auth/signIn/post`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({ json: { email, password } }),
  });
  if (res.status !== 200) throw new Error(`Sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith("svc_session="))
    ?.split(";")[0];
  if (!cookie) throw new Error("Sign-in set no session cookie");
  return cookie;
}
