// Webhook targets as an SSRF lever (issue: on the embedded defaults an endpoint at 169.254.169.254 or 10.0.0.1 was
// accepted and delivered to): the embedded defaults allow loopback only; every other special-purpose range, the
// metadata address, other schemes, credentials and service ports are refused with a message naming the rule.
import { describe, expect, it } from "vitest";
import { json } from "../support/stack.ts";
import type { AttackContextGetter } from "./context.ts";

const EVENT = "token.transfer.final";

export function webhookTargetAttacks(ctx: AttackContextGetter) {
  describe("webhook targets (SSRF)", () => {
    const subscribe = (url: string, key = ctx().orgA.ownerKey) =>
      ctx().stack.api("/api/v2/webhooks/endpoints", {
        key,
        method: "POST",
        body: JSON.stringify({ url, eventTypes: [EVENT] }),
      });

    it("refuses internal and malformed targets, naming the rule each breaks", async () => {
      const cases: [string, RegExp][] = [
        ["http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is the cloud metadata address/],
        ["http://[fd00:ec2::254]/latest/meta-data/", /fd00:ec2::254 is the cloud metadata address/],
        ["http://169.254.10.10/", /link-local range 169\.254\.0\.0\/16/],
        ["http://10.0.0.1/", /private range 10\.0\.0\.0\/8/],
        ["http://172.16.5.5/", /private range 172\.16\.0\.0\/12/],
        ["http://192.168.0.10/", /private range 192\.168\.0\.0\/16/],
        ["http://100.64.0.1/", /carrier-grade NAT/],
        ["http://[fd12::1]/", /unique-local \(private\) range fc00::\/7/],
        ["http://[::ffff:10.0.0.1]/", /private range 10\.0\.0\.0\/8/],
        ["http://0.0.0.0:8080/", /this-network/],
        ["file:///etc/passwd", /scheme file is not allowed/],
        ["gopher://127.0.0.1:25/", /scheme gopher is not allowed/],
        ["http://user:secret@127.0.0.1:9/", /credentials/],
        ["http://127.0.0.1:25/", /port 25 is a non-HTTP service port/],
        ["http://93.184.216.34/hook", /must use https/],
      ];
      for (const [url, reason] of cases) {
        const res = await subscribe(url);
        expect(res.status, url).toBe(422);
        const body = await json(res);
        expect(body.code, url).toBe("WEBHOOK_URL_NOT_ALLOWED");
        expect(body.message, url).toMatch(reason);
      }
      const { rows } = await ctx().op.db.pool.query(
        "select count(*)::int as n from platform.webhook_endpoints where organization_id = $1",
        [ctx().orgA.id],
      );
      expect(rows[0].n).toBe(0);
    });

    it("the embedded defaults allow a loopback receiver, by address or by name", async () => {
      for (const url of [
        "http://127.0.0.1:9999/loopback",
        "http://localhost:9999/loopback",
        "http://[::1]:9999/loopback",
      ]) {
        const res = await subscribe(url, ctx().orgB.ownerKey);
        expect(res.status, url).toBe(201);
        const { data } = await json(res);
        const removed = await ctx().stack.api(`/api/v2/webhooks/endpoints/${data.id}`, {
          key: ctx().orgB.ownerKey,
          method: "DELETE",
        });
        expect(removed.status).toBeLessThan(300);
      }
    });
  });
}
