// KYC documents end to end over HTTP: upload (API key and session), list, download the same bytes, the file on disk
// sealed, every download in the request log, delete; only identityManager and claimIssuer; nothing across
// organisations; a file of 10 MiB + 1 byte refused with the envelope.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInCookie } from "./security/context.ts";
import { keyedApi } from "./support/api-flows.ts";
import { type Member, type Operator, operator } from "./support/organizations.ts";
import { bootStack, json, type TestStack } from "./support/stack.ts";

const MAX_BYTES = 10 * 1024 * 1024;
const PASSWORD = "correct horse battery staple 43";

describe("KYC documents, end to end over HTTP", () => {
  let stack: TestStack;
  let ops: Operator;
  let ownerA: string;
  let idm: Member; // A's identity manager
  let issuer: Member; // A's claim issuer
  let plain: Member; // A's member: the documents' subject, without the roles to read them
  let idmB: Member; // B's identity manager

  const docs = (participantId: string) => `/api/v2/participants/${participantId}/kyc-documents`;
  const upload = (participantId: string, key: string, fields: { type?: string; file?: Blob; claimTopic?: string }) => {
    const form = new FormData();
    if (fields.type !== undefined) form.set("type", fields.type);
    if (fields.file) form.set("file", fields.file, "passport.pdf");
    if (fields.claimTopic) form.set("claimTopic", fields.claimTopic);
    return fetch(`${stack.platform.baseUrl}${docs(participantId)}`, {
      method: "POST",
      headers: { "x-api-key": key },
      body: form,
    });
  };
  const get = (path: string, key: string) => stack.api(path, { key });
  const codeOf = async (res: Response) => (await json(res)).code;
  const pdf = (bytes: number) => new Blob([Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(bytes)])]);

  beforeAll(async () => {
    stack = await bootStack();
    ops = operator(stack);
    const orgA = stack.platform.credentials.organizationId;
    ownerA = stack.platform.credentials.apiKey;
    [idm, issuer, plain] = await Promise.all([
      ops.member(orgA, "identityManager", "Ida Identity"),
      ops.member(orgA, "claimIssuer", "Cleo Claims"),
      ops.member(orgA, "member", "Mo Member"),
    ]);
    idmB = await ops.member(await ops.organization("Organisation B"), "identityManager", "Bea Identity");
  }, 240_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  it("uploads, lists, downloads the same bytes (recorded), keeps the file sealed, and deletes", async () => {
    const bytes = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(256 * 1024)]);
    const sha256 = `0x${createHash("sha256").update(bytes).digest("hex")}`;
    const from = new Date().toISOString();
    const created = await upload(plain.userId, idm.key, {
      type: "passport",
      claimTopic: "kyc",
      file: new Blob([bytes], { type: "application/pdf" }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { data: doc } = await json(created);
    expect(doc).toMatchObject({
      participantId: plain.userId,
      type: "passport",
      claimTopic: "kyc",
      fileName: "passport.pdf",
      contentType: "application/pdf",
      size: bytes.length,
      sha256,
      uploadedBy: idm.userId,
    });
    expect(created.headers.get("location")).toBe(`/v2/participants/${plain.userId}/kyc-documents/${doc.id}`);

    const listed = await json(await get(`${docs(plain.userId)}?filter[sha256]=${sha256}`, issuer.key));
    expect(listed.meta.total).toBe(1);
    expect(listed.data).toEqual([doc]);

    const download = await get(`${docs(plain.userId)}/${doc.id}`, issuer.key);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    const onDisk = readFileSync(join(stack.dataDir, "kyc-documents", `${doc.id}.sealed`));
    expect(onDisk.length).toBeGreaterThan(bytes.length); // IV and tag besides the ciphertext
    expect(onDisk.includes(bytes.subarray(0, 64))).toBe(false);
    expect(onDisk.includes(Buffer.from("%PDF"))).toBe(false);

    // The request log has the download, by whom; the upload's bytes are not in it.
    const window = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`;
    const endpoint = encodeURIComponent("/api/v2/participants/{participantId}/kyc-documents/{documentId}");
    const traceId = download.headers.get("x-request-id");
    const deadline = Date.now() + 15_000;
    let logged: { caller: { userId: string }; statusCode: number; id: string } | undefined;
    while (!logged) {
      const logs = await json(await get(`/api/v2/monitoring/api/request-logs?${window}&endpoint=${endpoint}`, ownerA));
      logged = logs.items.find((item: { traceId: string }) => item.traceId === traceId);
      if (!logged && Date.now() > deadline) throw new Error(`no log of the download: ${JSON.stringify(logs)}`);
      if (!logged) await new Promise((r) => setTimeout(r, 200));
    }
    expect(logged).toMatchObject({ method: "GET", statusCode: 200, caller: { userId: issuer.userId } });
    const uploads = await json(await get(`/api/v2/monitoring/api/request-logs?${window}&method=POST`, ownerA));
    expect(uploads.items.length).toBeGreaterThan(0);
    for (const item of uploads.items) {
      const detail = await json(await get(`/api/v2/monitoring/api/request-logs/${item.id}`, ownerA));
      expect(detail.requestBody).toBeNull();
    }

    const deleted = await stack.api(`${docs(plain.userId)}/${doc.id}`, { key: idm.key, method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect((await json(deleted)).data).toEqual(doc);
    expect(existsSync(join(stack.dataDir, "kyc-documents", `${doc.id}.sealed`))).toBe(false);
    expect(await codeOf(await get(`${docs(plain.userId)}/${doc.id}`, issuer.key))).toBe("KYC_DOCUMENT_NOT_FOUND");
    expect((await json(await get(docs(plain.userId), idm.key))).meta.total).toBe(0);
  });

  it("is for identityManager and claimIssuer only, and nothing of one organisation is seen by another", async () => {
    const created = await upload(plain.userId, issuer.key, { type: "proof-of-address", file: pdf(1024) });
    expect(created.status).toBe(201);
    const { id } = (await json(created)).data;
    const one = `${docs(plain.userId)}/${id}`;

    for (const res of [
      await get(docs(plain.userId), plain.key),
      await get(one, plain.key),
      await upload(plain.userId, plain.key, { type: "passport", file: pdf(16) }),
      await stack.api(one, { key: plain.key, method: "DELETE" }),
    ]) {
      expect(res.status).toBe(403);
      expect(await json(res)).toMatchObject({
        code: "USER_NOT_AUTHORIZED",
        data: { requiredRoles: ["identityManager", "claimIssuer"] },
      });
    }

    // B's identity manager: A's participant is not one of B's, and A's document is not under B's participant.
    for (const res of [
      await get(docs(plain.userId), idmB.key),
      await get(one, idmB.key),
      await upload(plain.userId, idmB.key, { type: "passport", file: pdf(16) }),
      await stack.api(one, { key: idmB.key, method: "DELETE" }),
    ]) {
      expect(res.status).toBe(404);
      expect(await codeOf(res)).toBe("PARTICIPANT_NOT_FOUND");
    }
    expect(await codeOf(await get(`${docs(idmB.userId)}/${id}`, idmB.key))).toBe("KYC_DOCUMENT_NOT_FOUND");
    expect((await get(one, idm.key)).status).toBe(200); // still there
  });

  it("takes a form from a signed-in page of its own origin, not from another", async () => {
    const person = await ops.person(stack.platform.credentials.organizationId, "identityManager", {
      password: PASSWORD,
    });
    const cookie = await signInCookie(stack.platform.baseUrl, person.email, PASSWORD);
    const send = (origin: string) => {
      const form = new FormData();
      form.set("type", "selfie");
      form.set("file", pdf(32), "selfie.jpg");
      return fetch(`${stack.platform.baseUrl}${docs(plain.userId)}`, {
        method: "POST",
        headers: { cookie, origin },
        body: form,
      });
    };
    expect((await send(stack.platform.baseUrl)).status).toBe(201);
    expect(await codeOf(await send("https://evil.example"))).toBe("CROSS_SITE_REQUEST_REFUSED");
  });

  it("lets a claim name a document of its subject by sha256, as an RFC 6920 uri", async () => {
    const { call, write } = keyedApi(
      () => stack,
      () => ownerA,
    );
    const shaOf = async (res: Response) => (await json(res)).data.sha256 as string;
    const [identity] = await Promise.all([
      write("POST", "/api/v2/system/identities", { wallet: plain.wallet, country: 56 }).then((r) => r.identity),
      write("POST", "/api/v2/system/topic-schemes", { name: "kyc", signature: "string level" }),
    ]);
    await write("POST", "/api/v2/system/claim-issuer");
    const own = await shaOf(await upload(plain.userId, idm.key, { type: "passport", file: pdf(64) }));
    const others = await shaOf(await upload(idm.userId, idm.key, { type: "passport", file: pdf(64) }));
    const claim = (extra: object) =>
      call("POST", "/api/v2/system/identity-claims", {
        wallet: plain.wallet,
        topic: "kyc",
        values: ["full"],
        ...extra,
      });

    for (const documentSha256 of [`0x${"00".repeat(32)}`, others]) {
      const refused = await claim({ documentSha256 });
      expect([refused.status, refused.body.code]).toEqual([404, "KYC_DOCUMENT_NOT_FOUND"]);
    }
    expect((await claim({ documentSha256: own, uri: "https://example.com" })).status).toBe(400);
    const issued = await claim({ documentSha256: own });
    expect([issued.status, issued.body.data?.status]).toEqual([200, "COMPLETED"]);

    const uri = `ni:///sha-256;${Buffer.from(own.slice(2), "hex").toString("base64url")}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const events = await json(await get(`/api/v2/system/identities/${identity}/claim-events`, ownerA));
      const uris = (events.data ?? []).flatMap((e: { values: { name: string; value: string }[] }) =>
        e.values.filter((v) => v.name === "uri").map((v) => v.value),
      );
      if (uris.includes(uri)) break;
      if (Date.now() > deadline) throw new Error(`no claim with ${uri}: ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  it("refuses a missing field with 400, and a file of 10 MiB + 1 byte with 413 (10 MiB is accepted)", async () => {
    const noFile = await upload(plain.userId, idm.key, { type: "passport" });
    expect(noFile.status).toBe(400);
    expect((await json(noFile)).data.issues.map((i: { path: string }) => i.path)).toContain("file");
    const noType = await upload(plain.userId, idm.key, { file: pdf(16) });
    expect(noType.status).toBe(400);
    expect((await json(noType)).data.issues.map((i: { path: string }) => i.path)).toContain("type");

    const tooLarge = await upload(plain.userId, idm.key, {
      type: "passport",
      file: new Blob([Buffer.alloc(MAX_BYTES + 1)]),
    });
    expect(tooLarge.status).toBe(413);
    expect(await json(tooLarge)).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      status: 413,
      data: { id: "SVC-0008", maxBytes: MAX_BYTES, size: MAX_BYTES + 1 },
    });
    // A body far beyond the upload's allowance is refused from its Content-Length, before it is read.
    const huge = await upload(plain.userId, idm.key, {
      type: "passport",
      file: new Blob([Buffer.alloc(MAX_BYTES * 2)]),
    });
    expect(huge.status).toBe(413);
    expect(await codeOf(huge)).toBe("PAYLOAD_TOO_LARGE");

    const largest = await upload(plain.userId, idm.key, {
      type: "passport",
      file: new Blob([Buffer.alloc(MAX_BYTES)]),
    });
    expect(largest.status).toBe(201);
    expect((await json(largest)).data.size).toBe(MAX_BYTES);
  });
});
