// No 500 at the edge (issue: three requests answered 500): a date PostgreSQL cannot store, any method but POST on a
// procedure, and a body nested 20,000 deep on /api/rpc. Each now answers 400 or 405 in the error envelope.
import { describe, expect, it } from "vitest";
import { json } from "../support/stack.ts";
import { type AttackContextGetter, signInCookie } from "./context.ts";

const PASSWORD = "pw-for-edge-attacks";
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

export function edgeAttacks(ctx: AttackContextGetter) {
  describe("the edge never answers 500", () => {
    let cookie = "";
    const base = () => ctx().stack.platform.baseUrl;
    /** A session request as the browser app sends it: the cookie, this API's Origin, JSON. */
    const session = (path: string, method: string, body?: string) =>
      fetch(`${base()}${path}`, {
        method,
        // A same-origin page's request: it passes the session's CSRF checks, so what answers is the method's rule.
        headers: { cookie, origin: base(), ...(method === "GET" ? {} : { "content-type": "application/json" }) },
        body,
      });

    it("signs in (the RPC cases run with a session)", async () => {
      const { op, orgA } = ctx();
      const { email } = await op.person(orgA.id, "owner", { password: PASSWORD, pincode: "135790" });
      cookie = await signInCookie(base(), email, PASSWORD);
    });

    it("answers 400 to a date outside years 0001..9999, the offset applied, before it reaches PostgreSQL", async () => {
      const put = (effectiveAt: string) =>
        ctx().stack.api("/api/v2/exchange-rates/ZZC/ZZD", {
          method: "PUT",
          body: JSON.stringify({ rate: "1", effectiveAt }),
        });
      for (const effectiveAt of ["0000-01-01T00:00:00Z", "0001-01-01T00:30:00+01:00", "10000-01-01T00:00:00Z"]) {
        const res = await put(effectiveAt);
        const body = await json(res);
        expect(res.status, `${effectiveAt}: ${JSON.stringify(body)}`).toBe(400);
        expect(body).toMatchObject({ code: "BAD_REQUEST" });
        expect(JSON.stringify(body)).toContain("effectiveAt");
      }
      for (const effectiveAt of ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"])
        expect((await put(effectiveAt)).status, effectiveAt).toBe(200);
      // A query date too: a collection filter and a window.
      const filter = await ctx().stack.api("/api/v2/transaction-requests?filter[createdAt][gt]=0000-01-01");
      expect(filter.status).toBe(400);
    });

    it("answers 405 with Allow: POST to any other method on a procedure; 404 to a made-up procedure", async () => {
      for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
        const res = await session("/api/rpc/transactionRequests/get", method);
        const body = await json(res);
        expect(res.status, `${method}: ${JSON.stringify(body)}`).toBe(405);
        expect(res.headers.get("allow")).toBe("POST");
        expect(body.json).toMatchObject({ code: "METHOD_NOT_ALLOWED", status: 405 });
        expect(body.json.data.dapiError.details).toMatchObject({ allow: ["POST"] });
      }
      const unknown = await session("/api/rpc/card-no-such/get", "GET");
      expect(unknown.status).toBe(404);
    });

    it("answers 400 to a body nested 20,000 deep on /api/rpc, as REST does: one depth limit", async () => {
      const rpc = await session("/api/rpc/transactionRequests/get", "POST", nested(20_000));
      const rpcBody = await json(rpc);
      expect(rpc.status, JSON.stringify(rpcBody)).toBe(400);
      expect(rpcBody.json).toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/nests deeper/) });
      const rest = await ctx().stack.api("/api/v2/exchange-rates/ZZC/ZZD", { method: "PUT", body: nested(20_000) });
      const restBody = await json(rest);
      expect(rest.status).toBe(400);
      expect(restBody).toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/nests deeper/) });
      // Within the limit, the procedure answers as its route does.
      const shallow = await session("/api/rpc/transactionRequests/get", "POST", JSON.stringify({ json: { id: "x" } }));
      expect(shallow.status).toBeLessThan(500);
    });
  });
}
