// What an outside probe found, each closed over real HTTP against the real stack: sign-in, second-factor and
// failed-credential throttling (counters shared through PostgreSQL), EIP-55 checksums, malformed request text, and
// the errors Node's HTTP layer raises before the app runs (raw sockets).
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCredentialFailures } from "../host/auth/credential-failures.ts";
import { lockoutPolicies } from "../host/auth/lockout-policies.ts";
import { attemptSignIn } from "../host/auth/sign-in-throttle.ts";
import { currentTotp } from "../host/auth/totp.ts";
import { loadConfig } from "../host/config.ts";
import { loadMasterKey } from "../host/crypto/master-key.ts";
import { type Databases, openDatabases } from "../host/db/database.ts";
import { ApiError } from "../host/errors/api-error.ts";
import { grantRole } from "../plugins/access/members.ts";
import { createUser } from "../plugins/access/users.ts";
import { bootStack, json, platformDbUrl, type TestStack } from "./support/stack.ts";

const CHECKSUMMED = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const MANGLED = "0x70997970C51812dc3a010C7d01b50e0d17dc79C8"; // the probe's: one letter's case flipped
const NO_TOKEN = "0x000000000000000000000000000000000000dEaD";
const PASSWORD = "pw-for-tests";
const REQUEST_TIMEOUT_SECONDS = 2;

/** Sends raw bytes on a fresh connection; everything read until the host closes it. */
function exchange(port: number, payload: string | Buffer): Promise<{ text: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (d) => {
      text += d;
    });
    socket.on("close", () => resolve({ text, ms: Date.now() - started }));
    socket.on("error", reject);
    socket.write(payload);
  });
}

function rawResponse(text: string) {
  const at = text.indexOf("\r\n\r\n");
  const head = text.slice(0, at);
  return { statusLine: head.split("\r\n")[0], head, body: JSON.parse(text.slice(at + 4)) };
}

describe("hardening", () => {
  let stack: TestStack;
  let operatorDb: Databases;
  let port: number;
  let addresses = 0;
  /** A source address of its own for each test (the stack trusts one proxy: X-Forwarded-For's last entry). */
  const freshAddress = () => `203.0.113.${++addresses}`;

  async function person(options: { totp?: boolean } = {}) {
    const email = `p-${Math.random().toString(36).slice(2)}@example.com`;
    const user = await createUser(operatorDb.platform, loadMasterKey(loadConfig(stack.env)), {
      email,
      displayName: "probe",
      password: PASSWORD,
      pincode: "246810",
      totp: options.totp,
    });
    const organizationId = stack.platform.credentials.organizationId;
    await grantRole(operatorDb.platform, { organizationId, userId: user.userId, role: "owner" });
    return { ...user, email };
  }

  const signIn = (from: string, email: string, password: string) =>
    stack.api("/api/v2/auth/sign-in", {
      key: null,
      method: "POST",
      headers: { "x-forwarded-for": `198.51.100.7, ${from}` }, // the left entry is the client's word: ignored
      body: JSON.stringify({ email, password }),
    });

  async function expectThrottled(res: Response, code: string, id: string) {
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(await json(res)).toMatchObject({
      code,
      status: 429,
      data: { id, retryable: true, category: "auth", retryAfterSeconds: retryAfter },
    });
    return retryAfter;
  }

  const sleep = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000));

  beforeAll(async () => {
    stack = await bootStack({
      TRUST_PROXY: "1",
      SIGN_IN_FREE_FAILURES: "3",
      SIGN_IN_ADDRESS_FREE_FAILURES: "6",
      SIGN_IN_LOCKOUT_BASE_SECONDS: "1",
      SIGN_IN_LOCKOUT_MAX_SECONDS: "2",
      AUTH_FAILURE_LIMIT: "5",
      AUTH_FAILURE_WINDOW_SECONDS: "3",
      REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_SECONDS),
    });
    operatorDb = openDatabases(platformDbUrl(stack.env), "ledger", 2);
    port = Number(new URL(stack.platform.baseUrl).port);
  });
  afterAll(async () => {
    await operatorDb?.close().catch(() => {});
    await stack?.stop();
  });

  describe("sign-in throttling", () => {
    it("locks an account out after a few failures: even the right password is 429 until Retry-After; a success resets", async () => {
      const user = await person();
      const from = freshAddress();
      for (let i = 0; i < 4; i++) expect((await signIn(from, user.email, "wrong")).status).toBe(401);
      // The 4th failure (past the 3 free ones) started a lockout: the right password waits too, from any address.
      const retryAfter = await expectThrottled(
        await signIn(freshAddress(), user.email, PASSWORD),
        "auth.signin.THROTTLED",
        "SVC-12137",
      );
      await sleep(retryAfter);
      expect((await signIn(from, user.email, PASSWORD)).status).toBe(200);
      // The success reset the account's counter: three more failures start no lockout (from an address with no
      // failures of its own: `from` keeps counting its four).
      const other = freshAddress();
      for (let i = 0; i < 3; i++) expect((await signIn(other, user.email, "wrong")).status).toBe(401);
      expect((await signIn(other, user.email, PASSWORD)).status).toBe(200);
    });

    it("25 parallel wrong passwords: only those before the lockout are checked, the rest are 429", async () => {
      const user = await person();
      const from = freshAddress();
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 25 }, () => signIn(from, user.email, "wrong")));
      // The lockouts here last 1-2 s: on a loaded machine the burst outlasts one, and each lockout that ends lets
      // one more guess be checked (which locks again).
      const lapsed = Math.ceil((performance.now() - started) / 1000) - 1;
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(4 + lapsed);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(21 - lapsed);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    });

    it("locks a source address out across accounts; other addresses are not affected", async () => {
      const user = await person();
      const from = freshAddress();
      // Seven failures for seven accounts (none locked on its own): the address's six free ones, then a lockout.
      for (let i = 0; i < 7; i++) expect((await signIn(from, `nobody-${i}@example.com`, "wrong")).status).toBe(401);
      await expectThrottled(await signIn(from, user.email, PASSWORD), "auth.signin.THROTTLED", "SVC-12137");
      expect((await signIn(freshAddress(), user.email, PASSWORD)).status).toBe(200);
    });

    it("keeps its counters in PostgreSQL: another host process (its own pool) sees the same lockout", async () => {
      const user = await person();
      const from = freshAddress();
      for (let i = 0; i < 4; i++) expect((await signIn(from, user.email, "wrong")).status).toBe(401);
      const policies = lockoutPolicies(loadConfig(stack.env));
      const elsewhere = attemptSignIn(operatorDb.platform, [
        { scope: "sign-in:account", key: user.email, policy: policies.account },
      ]);
      await expect(elsewhere).rejects.toMatchObject({ code: "auth.signin.THROTTLED" });
    });

    it("throttles second-factor codes per person the same way", async () => {
      const user = await person({ totp: true });
      const from = freshAddress();
      const res = await signIn(from, user.email, PASSWORD);
      expect((await json(res)).data.status).toBe("TWO_FACTOR_REQUIRED");
      const pending = res.headers
        .getSetCookie()
        .find((c) => c.startsWith("svc_2fa="))!
        .split(";")[0];
      const verify = (code: string) =>
        stack.api("/api/v2/auth/two-factor", {
          key: null,
          method: "POST",
          headers: { cookie: pending, "x-forwarded-for": from },
          body: JSON.stringify({ code }),
        });
      const wrong = currentTotp(user.totpSecret ?? "") === "000000" ? "111111" : "000000";
      for (let i = 0; i < 4; i++) expect((await json(await verify(wrong))).code).toBe("TWO_FACTOR_CODE_INVALID");
      const retryAfter = await expectThrottled(
        await verify(currentTotp(user.totpSecret ?? "")),
        "auth.signin.THROTTLED",
        "SVC-12137",
      );
      await sleep(retryAfter);
      expect((await verify(currentTotp(user.totpSecret ?? ""))).status).toBe(200);
    });
  });

  describe("failed credentials per source address", () => {
    it("after N unknown keys or invalid session cookies: 429 auth.credential.THROTTLED; a valid key still passes", async () => {
      const from = freshAddress();
      const bogus = `svc_${"A".repeat(43)}`;
      const as = (headers: Record<string, string>, key: string | null = null) =>
        stack.api("/api/v2/auth/session", { key, headers: { "x-forwarded-for": from, ...headers } });
      for (let i = 0; i < 3; i++) expect((await as({}, bogus)).status).toBe(401);
      for (let i = 0; i < 2; i++) expect((await as({ cookie: "svc_session=forged" })).status).toBe(401);
      const retryAfter = await expectThrottled(await as({}, bogus), "auth.credential.THROTTLED", "SVC-12138");
      await expectThrottled(await as({ cookie: "svc_session=forged" }), "auth.credential.THROTTLED", "SVC-12138");
      // A valid key from the same address is not locked out by the others' failures.
      expect((await as({}, stack.platform.credentials.apiKey)).status).toBe(200);
      // Another address is not affected; a request without any credential is a plain 401.
      expect((await stack.api("/api/v2/auth/session", { headers: { "x-forwarded-for": freshAddress() } })).status).toBe(
        200,
      );
      expect((await as({})).status).toBe(401);
      // Another process learns of the lock from the shared counter on its first failure from that address.
      const elsewhere = createCredentialFailures(
        operatorDb.platform,
        lockoutPolicies(loadConfig(stack.env)).credential,
      );
      expect((await elsewhere.failed(from, new ApiError("UNAUTHORIZED"))).code).toBe("auth.credential.THROTTLED");
      await sleep(retryAfter + 0.5);
      expect((await as({}, bogus)).status).toBe(401);
    });

    it("a valid key's requests are not counted", async () => {
      const from = freshAddress();
      for (let i = 0; i < 10; i++) {
        const res = await stack.api("/api/v2/auth/session", { headers: { "x-forwarded-for": from } });
        expect(res.status).toBe(200);
      }
      const rows = await operatorDb.platform
        .selectFrom("authFailures")
        .selectAll()
        .where("subject", "=", from)
        .execute();
      expect(rows).toEqual([]);
    });
  });

  describe("EIP-55 checksums", () => {
    it("refuses a mixed-case address with a wrong checksum (400 naming the field); lowercase and uppercase pass", async () => {
      const mint = (token: string, recipient: string) =>
        stack.api(`/api/v2/tokens/${token}/mint`, {
          method: "POST",
          body: JSON.stringify({ recipients: [recipient], amounts: ["1"] }),
        });
      const refused = await mint(NO_TOKEN, MANGLED);
      expect(refused.status).toBe(400);
      const body = await json(refused);
      expect(body).toMatchObject({ code: "BAD_REQUEST", data: { id: "SVC-0001" } });
      expect(body.data.issues).toEqual([{ path: "recipients.0", message: expect.stringMatching(/EIP-55 checksum/) }]);
      for (const fine of [CHECKSUMMED, CHECKSUMMED.toLowerCase(), `0x${CHECKSUMMED.slice(2).toUpperCase()}`]) {
        const res = await mint(NO_TOKEN, fine);
        expect((await json(res)).code, fine).not.toBe("BAD_REQUEST"); // on to the token lookup
      }
      const path = await stack.api(`/api/v2/token/${MANGLED}`);
      expect(path.status).toBe(400);
      expect((await json(path)).data.issues[0].path).toBe("address");
      const participant = await stack.api(`/api/v2/participants/${MANGLED}/activities`);
      expect(participant.status).toBe(400);
      expect((await json(participant)).data.issues[0].path).toBe("participantId");
    });
  });

  describe("malformed request text", () => {
    const create = (body: Buffer | string, contentType = "application/json") =>
      stack.api("/api/v2/settings/compliance-templates", {
        method: "POST",
        headers: { "content-type": contentType },
        body,
      });
    const template = (name: string) => `{"name":"${name}","modules":[]}`;

    it("stores well-formed UTF-8 as sent", async () => {
      const res = await create(Buffer.from(template("Zoë \\ud83d\\ude00 €"), "utf8"));
      expect(res.status).toBe(201);
      expect((await json(res)).data.name).toBe("Zoë 😀 €");
    });

    it.each([
      [
        "a UTF-8 byte order mark",
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(template("Bom"))]),
        /byte order mark/,
      ],
      [
        "invalid UTF-8 bytes",
        Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","modules":[]}')]),
        /not valid UTF-8/,
      ],
      ["a lone surrogate escape", Buffer.from(template("bad \\ud800 name")), /lone UTF-16 surrogates/],
      [
        "a lone low surrogate escape in a key",
        Buffer.from('{"name":"x","\\udc00":1,"modules":[]}'),
        /lone UTF-16 surrogates/,
      ],
      ["a NUL escape", Buffer.from(template("nul \\u0000")), /NUL/],
    ])("refuses %s with 400 BAD_REQUEST", async (_, body, message) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      const out = await json(res);
      expect(out).toMatchObject({ code: "BAD_REQUEST", status: 400, data: { id: "SVC-0001" } });
      expect(out.message).toMatch(message);
    });

    it("refuses a charset other than UTF-8, and accepts charset=utf-8", async () => {
      const res = await create(Buffer.from(template("Sixteen")), "application/json; charset=utf-16");
      expect(res.status).toBe(400);
      expect((await json(res)).message).toMatch(/charset=utf-16/);
      expect((await create(Buffer.from(template("Eight")), "application/json; charset=UTF-8")).status).toBe(201);
    });
  });

  describe("errors of Node's HTTP layer, in the envelope", () => {
    it("a head over 16 KiB: 431 REQUEST_HEADER_FIELDS_TOO_LARGE in Form A, Connection: close", async () => {
      const { text } = await exchange(
        port,
        `GET /api/v2/auth/session?x=${"a".repeat(20_000)} HTTP/1.1\r\nHost: h\r\n\r\n`,
      );
      const out = rawResponse(text);
      expect(out.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
      expect(out.head).toMatch(/^connection: close$/im);
      const requestId = out.head.match(/^x-request-id: (.+)$/im)?.[1];
      expect(out.body).toMatchObject({
        code: "REQUEST_HEADER_FIELDS_TOO_LARGE",
        status: 431,
        message: expect.any(String),
        data: { id: "SVC-0021", retryable: false, category: "client", requestId },
      });
    });

    it("a malformed request line: 400 BAD_REQUEST in Form A", async () => {
      const out = rawResponse((await exchange(port, "NOT A REQUEST\r\n\r\n")).text);
      expect(out.statusLine).toBe("HTTP/1.1 400 Bad Request");
      expect(out.body).toMatchObject({ code: "BAD_REQUEST", status: 400, data: { id: "SVC-0001" } });
    });

    it("a body shorter than its Content-Length cannot hang: 408 REQUEST_TIMEOUT once the request timeout passes", async () => {
      const body = '{"templateId":"deposit"';
      const request =
        `POST /api/v2/tokens HTTP/1.1\r\nHost: h\r\nX-Api-Key: ${stack.platform.credentials.apiKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length + 100}\r\n\r\n${body}`;
      const { text, ms } = await exchange(port, request);
      const out = rawResponse(text);
      expect(out.statusLine).toBe("HTTP/1.1 408 Request Timeout");
      expect(out.body).toMatchObject({ code: "REQUEST_TIMEOUT", status: 408, data: { id: "SVC-0020" } });
      expect(ms).toBeLessThan((REQUEST_TIMEOUT_SECONDS + 2) * 1000);
      // The host is still well: the next request is answered.
      expect((await stack.api("/api/v2/auth/session")).status).toBe(200);
    });
  });
});
