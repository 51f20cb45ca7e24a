import { describe, expect, it } from "vitest";
import { keptAfterClaim } from "./bundle-claims.ts";
import { inBundleOrder } from "./bundle-split.ts";

const row = (sender: string, nonce: number) => ({ userOpHash: `${sender}:${nonce}`, sender, nonce: String(nonce) });

describe("keptAfterClaim", () => {
  it("keeps what the bundle claimed, and releases a sender's operations behind one replaced meanwhile", () => {
    const rows = [row("a", 0), row("a", 1), row("a", 2), row("b", 0), row("b", 1)];
    // a:1 was replaced (higher fees) between the plan and the claim: a:2 cannot run without it.
    const held = new Set(["a:0", "a:2", "b:0", "b:1"]);
    const { kept, released } = keptAfterClaim(rows, held);
    expect(kept.map((r) => r.userOpHash)).toEqual(["a:0", "b:0", "b:1"]);
    expect(released.map((r) => r.userOpHash)).toEqual(["a:2"]);
  });
});

describe("inBundleOrder", () => {
  it("puts each sender's operations in nonce order, senders in order of their first", () => {
    // A replaced predecessor (a:0) is newer than its successor: a crashed run's bundle is resumed in nonce order.
    const rows = [row("a", 1), row("b", 0), row("a", 0)];
    expect(inBundleOrder(rows).map((r) => r.userOpHash)).toEqual(["a:0", "a:1", "b:0"]);
  });
});
