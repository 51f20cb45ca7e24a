// Cross-site request forgery with a valid session cookie (issue: an empty text/plain POST to /api/rpc was accepted
// for smartWallets/post and auth/signOut/post): a write authenticated by the cookie needs this API's Origin and a JSON
// Content-Type (403 CROSS_SITE_REQUEST_REFUSED, 403 SESSION_WRITE_JSON_REQUIRED); API keys are not affected; a sign-in
// from a foreign page is refused.
import { describe, expect, it } from "vitest";
import { json } from "../support/stack.ts";
import { type AttackContextGetter, signInCookie } from "./context.ts";

const PASSWORD = "pw-for-csrf-attacks";
const EVIL = "http://evil.example";

export function csrfAttacks(ctx: AttackContextGetter) {
  describe("CSRF with a valid session cookie", () => {
    let email = "";
    let cookie = "";

    /** A raw request with the session cookie, as a page would send it: no API key, headers exactly as given. */
    const send = (path: string, headers: Record<string, string>, body?: string, method = "POST") =>
      fetch(`${ctx().stack.platform.baseUrl}${path}`, { method, headers: { cookie, ...headers }, body });
    const own = () => ctx().stack.platform.baseUrl;
    /** Another port of the same host: the same site for SameSite=Lax, another origin. */
    const sibling = () => {
      const url = new URL(own());
      url.port = String(Number(url.port) + 1);
      return url.origin;
    };
    /** The error's code and id, from the REST envelope or the RPC error (`{json: {code, data: {dapiError}}}`). */
    const errorOf = async (res: Response): Promise<{ code: string; id: string }> => {
      const body = await json(res);
      const error = body.json ?? body;
      return { code: error.code, id: error.data?.dapiError?.id ?? error.data?.id };
    };
    const codeOf = async (res: Response) => (await errorOf(res)).code;
    const sessionAlive = async () =>
      (await send("/api/v2/auth/session", { origin: own() }, undefined, "GET")).status === 200;

    it("signs in from the API's own origin", async () => {
      const { stack, op, orgA } = ctx();
      ({ email } = await op.person(orgA.id, "owner", { password: PASSWORD, pincode: "135790" }));
      cookie = await signInCookie(stack.platform.baseUrl, email, PASSWORD);
      expect(await sessionAlive()).toBe(true);
    });

    it("refuses a cross-site text/plain POST to smartWallets/post and auth/signOut/post", async () => {
      for (const origin of [EVIL, sibling()])
        for (const procedure of ["smartWallets/post", "auth/signOut/post"]) {
          for (const body of ["", '{"json":{}}']) {
            const res = await send(`/api/rpc/${procedure}`, { origin, "content-type": "text/plain" }, body);
            expect(res.status, `${procedure} from ${origin}`).toBe(403);
            expect(await errorOf(res)).toEqual({ code: "CROSS_SITE_REQUEST_REFUSED", id: "SVC-12160" });
          }
        }
      expect(await sessionAlive()).toBe(true);
      const { rows } = await ctx().op.db.pool.query("select count(*)::int as n from platform.smart_wallets");
      expect(rows[0].n).toBe(0);
    });

    it("refuses a write without an Origin, or with another scheme, and one that is not JSON", async () => {
      const noOrigin = await send("/api/rpc/auth/signOut/post", { "content-type": "application/json" }, "{}");
      expect(await codeOf(noOrigin)).toBe("CROSS_SITE_REQUEST_REFUSED");
      const otherScheme = own().replace("http:", "https:");
      expect(await codeOf(await send("/api/v2/auth/sign-out", { origin: otherScheme }))).toBe(
        "CROSS_SITE_REQUEST_REFUSED",
      );
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
        const res = await send("/api/rpc/auth/signOut/post", { origin: own(), "content-type": type }, "");
        expect(res.status, type).toBe(403);
        expect(await errorOf(res)).toEqual({ code: "SESSION_WRITE_JSON_REQUIRED", id: "SVC-12161" });
      }
      // REST routes that take the cookie get the same checks, a bodiless write included.
      expect(await codeOf(await send("/api/v2/auth/sign-out", { origin: own() }))).toBe("SESSION_WRITE_JSON_REQUIRED");
      const form = await send("/api/v2/api-keys", { origin: EVIL, "content-type": "application/json" }, "{}");
      expect(await codeOf(form)).toBe("CROSS_SITE_REQUEST_REFUSED");
      expect(await sessionAlive()).toBe(true);
    });

    it("a same-origin JSON write still works; an API key is not asked for an Origin", async () => {
      const created = await send(
        "/api/rpc/apiKeys/post",
        { origin: own(), "content-type": "application/json" },
        JSON.stringify({ json: { name: "from the console", scope: "read" } }),
      );
      expect(created.status).toBe(200);
      const byKey = await fetch(`${own()}/api/v2/api-keys`, {
        method: "POST",
        headers: { "x-api-key": ctx().orgA.ownerKey, origin: EVIL, "content-type": "application/json" },
        body: JSON.stringify({ name: "from a server", scope: "read" }),
      });
      expect(byKey.status).toBe(201);
    });

    it("refuses a sign-in posted from a foreign page, not one without an Origin", async () => {
      const signIn = (headers: Record<string, string>) =>
        fetch(`${own()}/api/v2/auth/sign-in`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ email, password: PASSWORD }),
        });
      const foreign = await signIn({ origin: EVIL });
      expect(foreign.status).toBe(403);
      expect(foreign.headers.getSetCookie()).toEqual([]);
      expect(await codeOf(foreign)).toBe("CROSS_SITE_REQUEST_REFUSED");
      const rpcForeign = await fetch(`${own()}/api/rpc/auth/signIn/post`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: sibling() },
        body: JSON.stringify({ json: { email, password: PASSWORD } }),
      });
      expect(rpcForeign.status).toBe(403);
      expect((await signIn({})).status).toBe(200);
    });

    it("signs out from the API's own origin", async () => {
      const res = await send("/api/rpc/auth/signOut/post", { origin: own(), "content-type": "application/json" }, "{}");
      expect(res.status).toBe(200);
      expect(await sessionAlive()).toBe(false);
    });
  });
}
