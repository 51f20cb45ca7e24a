// The RPC transport against the real stack, called with oRPC's own client (RPCLink): a session signs in through a
// procedure, reads and writes give what their REST routes give (a write under one Idempotency-Key happens once), the
// routes' errors arrive as RPC errors with the public object at data.dapiError, an API key is refused with 403
// API_KEY_NOT_SUPPORTED_ON_RPC, each call is recorded once as `rpc`, and the v2 document describes the transport.
import { createORPCClient, ORPCError } from "@orpc/client";
import { RPCLink } from "@orpc/client/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDON_CONTRACTS } from "../scripts/contracts/platform-contracts.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { organizationStack } from "./support/shared-stack.ts";
import { json, type TestStack } from "./support/stack.ts";

interface CallContext {
  headers?: Record<string, string>;
}
// biome-ignore lint/suspicious/noExplicitAny: the client is untyped here (no router type): tests assert on JSON
type AnyClient = any;

const PIN = "246810";
const walletVerification = { verificationType: "PINCODE", secretVerificationCode: PIN };

describe("/api/rpc", () => {
  let stack: TestStack;
  let op: Operator;
  let cookie = "";
  let client: AnyClient;

  /** oRPC's client; `credentials` are sent on every call (the session cookie, or an API key to see it refused). */
  const clientWith = (credentials: () => Record<string, string>) =>
    createORPCClient(
      new RPCLink<CallContext>({
        url: `${stack.platform.baseUrl}/api/rpc`,
        // A page of the API's own origin (host/http/same-origin.ts).
        headers: ({ context }) => ({ origin: stack.platform.baseUrl, ...credentials(), ...context?.headers }),
        // Keeps the session cookie a sign-in procedure sets, as a browser would.
        fetch: async (request, init) => {
          const res = await fetch(request, init);
          const session = res.headers.getSetCookie().find((c) => c.startsWith("svc_session="));
          if (session) cookie = session.split(";")[0]!;
          return res;
        },
      }),
    ) as AnyClient;
  const rest = (path: string, init: RequestInit = {}) =>
    stack.api(path, { ...init, key: null, headers: { ...(init.headers as Record<string, string>), cookie } });
  /** The RPC error a call fails with. */
  const failure = async (call: Promise<unknown>): Promise<ORPCError<string, AnyClient>> => {
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ORPCError);
    return error as ORPCError<string, AnyClient>;
  };

  beforeAll(async () => {
    stack = await organizationStack("rpc");
    op = operator(stack);
    const { userId, email } = await op.person(stack.platform.credentials.organizationId, "owner", {
      password: "pw-for-rpc",
      pincode: PIN,
    });
    client = clientWith((): Record<string, string> => (cookie ? { cookie } : {}));
    const signedIn = await client.auth.signIn.post({ email, password: "pw-for-rpc" });
    expect(signedIn).toMatchObject({ data: { userId } });
    expect(cookie).toMatch(/^svc_session=/);
  }, 240_000);

  afterAll(async () => {
    await op?.close();
    await stack?.stop();
  });

  it("a read gives what its REST route gives, query fields nested or flat", async () => {
    expect(await client.auth.session.get()).toEqual(await json(await rest("/api/v2/auth/session")));
    expect(await client.system.directory.get()).toEqual(await json(await rest("/api/v2/system/directory")));
    const page = await client.system.addonFactories.get({ page: { limit: 2 }, sort: "-name" });
    expect(page).toEqual(await json(await rest("/api/v2/system/addon-factories?page[limit]=2&sort=-name")));
    expect(page.data).toHaveLength(2);
    // Every system is created with an addon per built-in add-on type.
    expect(page.meta.total).toBe(Object.keys(ADDON_CONTRACTS).length);
    expect(await client.system.addonFactories.get({ "page[limit]": 2, sort: "-name" })).toEqual(page);
  });

  it("a write runs once under one Idempotency-Key and reads back the same over both transports", async () => {
    const context = { headers: { "idempotency-key": "rpc-token-1", prefer: "wait=60" } };
    const input = { templateId: "deposit", name: "RPC Token", symbol: "RPCT", walletVerification };
    const created = await client.tokens.post(input, { context });
    expect(created.data).toMatchObject({ status: "COMPLETED", tokenAddress: expect.stringMatching(/^0x/) });
    const again = await client.tokens.post(input, { context });
    expect(again.data.transactionId).toBe(created.data.transactionId);
    const { rows } = await op.db.pool.query(
      "select count(*)::int as n from platform.transaction_requests where idempotency_key = $1",
      ["rpc-token-1"],
    );
    expect(rows[0].n).toBe(1);

    const tokenAddress = created.data.tokenAddress;
    const viaRpc = await client.tokens.read({ address: tokenAddress });
    expect(viaRpc).toEqual(await json(await rest(`/api/v2/tokens/${tokenAddress}`)));
    expect(viaRpc.data).toMatchObject({ name: "RPC Token", symbol: "RPCT" });
  }, 120_000);

  it("a route's error is the RPC error with its status, code and the public object at data.dapiError", async () => {
    const missing = await failure(client.transactionRequests.read({ transactionId: "no-such-request" }));
    const viaRest = await json(await rest("/api/v2/transaction-requests/no-such-request"));
    expect(missing).toMatchObject({ defined: true, code: viaRest.code, status: viaRest.status });
    expect(missing.data.dapiError).toMatchObject({
      id: viaRest.data.id,
      category: viaRest.data.category,
      status: viaRest.status,
      retryable: viaRest.data.retryable,
      why: viaRest.data.why,
      fix: viaRest.data.fix,
      details: { code: viaRest.code, requestId: expect.any(String) },
    });

    // The route's own validation: a page limit out of range (SVC-9274), the same as REST.
    const outOfRange = await failure(client.transactionRequests.get({ page: { limit: 0 } }));
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.data.dapiError.id).toBe(
      (await json(await rest("/api/v2/transaction-requests?page[limit]=0"))).data.id,
    );
    // A write without its PIN: the route's refusal, not a transport's.
    const unverified = await failure(client.tokens.post({ templateId: "deposit", name: "No PIN", symbol: "NOP" }));
    expect(unverified).toMatchObject({ status: 400, code: "WALLET_VERIFICATION_REQUIRED" });
    // A path parameter left out, and a procedure that does not exist.
    const noParam = await failure(client.tokens.read({}));
    expect(noParam).toMatchObject({ status: 400, code: "BAD_REQUEST" });
    expect(noParam.data.dapiError.message).toMatch(/address/);
    const unknown = await failure(client.tokens.teleport.post({}));
    expect(unknown).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect(unknown.data.dapiError.id).toEqual(expect.stringMatching(/^SVC-/));
  });

  it("the same permissions: a member without monitoring access is refused as over REST", async () => {
    const member = await op.member(stack.platform.credentials.organizationId, "member");
    const { email } = await op.person(stack.platform.credentials.organizationId, "member", { password: "pw-for-rpc" });
    const owner = cookie;
    let memberCookie = "";
    const memberClient = clientWith((): Record<string, string> => (memberCookie ? { cookie: memberCookie } : {}));
    await memberClient.auth.signIn.post({ email, password: "pw-for-rpc" });
    memberCookie = cookie;
    cookie = owner;
    const summary = "/api/v2/monitoring/api/request-metrics/summary";
    const refused = await failure(memberClient.monitoring.api.requestMetrics.summary.get({}));
    const viaRest = await stack.api(summary, { key: member.key });
    expect(refused.status).toBe(viaRest.status);
    expect(refused.code).toBe((await json(viaRest)).code);
    expect(memberCookie).not.toBe(owner);
  });

  it("refuses an API key with 403 API_KEY_NOT_SUPPORTED_ON_RPC, in the RPC error", async () => {
    const keyed = clientWith(() => ({ "x-api-key": stack.platform.credentials.apiKey }));
    const refused = await failure(keyed.auth.session.get());
    expect(refused).toMatchObject({ defined: true, status: 403, code: "API_KEY_NOT_SUPPORTED_ON_RPC" });
    expect(refused.data.dapiError).toMatchObject({ status: 403, category: expect.any(String), id: expect.any(String) });
    // Without any credential: 401, as over REST.
    const anonymous = await failure(clientWith(() => ({})).auth.session.get());
    expect(anonymous.status).toBe(401);
  });

  it("each call is recorded once, as rpc, under its procedure's path", async () => {
    const marker = `rpc-recorded-${Math.random().toString(36).slice(2)}`;
    await client.transactionRequests.get({}, { context: { headers: { "idempotency-key": marker } } });
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { rows } = await op.db.pool.query(
        "select request_type, route_template from platform.monitoring_request_logs where idempotency_key = $1",
        [marker],
      );
      if (rows.length > 0) {
        await new Promise((r) => setTimeout(r, 1500)); // a second flush would bring a duplicate
        const again = await op.db.pool.query(
          "select count(*)::int as n from platform.monitoring_request_logs where idempotency_key = $1",
          [marker],
        );
        expect(again.rows[0].n).toBe(1);
        expect(rows[0]).toEqual({ request_type: "rpc", route_template: "/api/rpc/transactionRequests/get" });
        break;
      }
      if (Date.now() > deadline) throw new Error("the RPC call was not recorded");
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  it("answers every procedure's hostile inputs with its route's answer or an RPC error, never a 5xx", async () => {
    const document = await json(await stack.api("/api/v2/spec.json", { key: null }));
    const procedures: string[] = document.paths["/api/rpc/{procedure}"].post.parameters[0].schema.enum;
    expect(procedures.length).toBeGreaterThan(100);
    const problems: string[] = [];
    // Signing out would end the session the sweep runs with.
    for (const procedure of procedures.filter((p) => p !== "auth/signOut/post")) {
      for (const body of ['{"json":5}', '{"json":{}}', '{"json":{"page":{"limit":"x"},"amount":[]}}', "{"]) {
        const res = await fetch(`${stack.platform.baseUrl}/api/rpc/${procedure}`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body,
        });
        // biome-ignore lint/suspicious/noExplicitAny: an answer of any shape is checked field by field
        const answer: any = await res.json().catch(() => undefined);
        const requestId = res.headers.get("x-request-id");
        if (res.status >= 500) problems.push(`${procedure} ${body}: ${res.status} ${JSON.stringify(answer)}`);
        else if (res.status >= 400 && answer?.json?.data?.dapiError?.details?.requestId !== requestId)
          problems.push(`${procedure} ${body}: ${res.status} without the RPC error of this request`);
      }
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it("answers a body that is not JSON, or an input oRPC cannot decode, with the registry's RPC error", async () => {
    const call = async (init: RequestInit, query = "") => {
      const res = await fetch(`${stack.platform.baseUrl}/api/rpc/auth/signIn/post${query}`, init);
      // biome-ignore lint/suspicious/noExplicitAny: checked field by field
      const answer: any = await res.json();
      expect(answer.json.data.dapiError.details.requestId).toBe(res.headers.get("x-request-id"));
      return { status: res.status, code: answer.json.code };
    };
    for (const type of ["multipart/form-data", "text/plain", "application/x-www-form-urlencoded"])
      expect(await call({ method: "POST", headers: { "content-type": type }, body: "{}" })).toEqual({
        status: 415,
        code: "UNSUPPORTED_MEDIA_TYPE",
      });
    // A procedure answers POST only: GET (oRPC's query form) is 405, not a decoding attempt.
    expect(await call({ method: "GET" }, "?data=%7Bnot-json")).toMatchObject({
      status: 405,
      code: "METHOD_NOT_ALLOWED",
    });
  });

  it("the v2 document describes the transport and names each operation by its procedure", async () => {
    const document = await json(await stack.api("/api/v2/spec.json", { key: null }));
    const transport = document.paths["/api/rpc/{procedure}"].post;
    expect(transport.tags).toEqual(["rpc"]);
    const procedures = transport.parameters.find((p: { name: string }) => p.name === "procedure").schema.enum;
    expect(procedures).toEqual(expect.arrayContaining(["tokens/mint/post", "tokens/read", "auth/signIn/post"]));
    expect(document.paths["/api/v2/tokens/{tokenAddress}/mint"].post.operationId).toBe("tokens.mint.post");
    expect(transport.responses.default.content["application/json"].schema.$ref).toBe("#/components/schemas/RpcError");
    expect(document.components.schemas.RpcError).toBeDefined();
  });
});
