// The API's documents and explorers against the real stack: valid OpenAPI 3.1, compressed, and usable offline.
import { existsSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import SwaggerParser from "@apidevtools/swagger-parser";
import { Parser as AsyncApiParser } from "@asyncapi/parser";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizationStack } from "./support/shared-stack.ts";
import { json, type TestStack } from "./support/stack.ts";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const V2_PATHS = [
  "/api/v2/token-templates",
  "/api/v2/tokens",
  "/api/v2/token/{address}",
  "/api/v2/transaction-requests/{transactionId}",
];
const V1_PATHS = ["/api/token/{tokenAddress}/holders"];
const FORM_B_FIELDS = ["id", "category", "status", "retryable", "message", "why", "fix", "details"];

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET that keeps the body as sent (fetch would decode Content-Encoding itself). */
function rawGet(url: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const withoutWordBreaks = (text: string) => text.replace(/\u200b/g, "").trim();

describe("the API documents and explorers", () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await organizationStack("openapi");
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("serves a valid OpenAPI 3.1 document for v2, without an API key, with its routes, schemes and Form A errors", async () => {
    const res = await stack.api("/api/v2/spec.json", { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const doc = await json(res);
    await SwaggerParser.validate(structuredClone(doc));
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(V2_PATHS));
    // v2's operations, and the RPC transport that serves them as procedures.
    for (const path of Object.keys(doc.paths)) expect(path).toMatch(/^\/api\/(v2\/|rpc\/\{procedure\}$)/);
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-Api-Key" });
    expect(doc.components.securitySchemes.SessionCookie).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "svc_session",
    });
    expect(doc.security).toEqual(expect.arrayContaining([{ ApiKey: [] }, { SessionCookie: [] }]));
    expect(Object.keys(doc.components.schemas.Error.properties)).toEqual(["code", "status", "message", "data"]);
    expect(doc.components.schemas.LegacyError).toBeUndefined();
    // Error responses refer to one shared response per status, in the Form A envelope.
    expect(doc.paths["/api/v2/token/{address}"].get.responses["404"]).toEqual({
      $ref: "#/components/responses/NotFound",
    });
    expect(doc.components.responses.NotFound.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
    // A chain write declares the shared headers by reference and documents 422.
    const mint = doc.paths["/api/v2/tokens/{tokenAddress}/mint"].post;
    expect(mint.parameters).toEqual(
      expect.arrayContaining([
        { $ref: "#/components/parameters/IdempotencyKey" },
        { $ref: "#/components/parameters/Prefer" },
      ]),
    );
    expect(mint.responses["422"]).toEqual({ $ref: "#/components/responses/UnprocessableEntity" });
    expect(doc.paths["/api/v2/tokens"].post.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/CreateTokenRequest",
    });
  });

  it("describes the webhook deliveries in the v2 document and serves a valid AsyncAPI document of the same types", async () => {
    const doc = await json(await stack.api("/api/v2/spec.json", { key: null }));
    expect(doc.webhooks["token.transfer.final"].post.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/TokenTransferFinalV1",
    });
    expect(doc.components.schemas.TokenTransferFinalV1Payload.additionalProperties).toBe(false);
    const res = await stack.api("/api/v2/webhooks/asyncapi.json");
    expect(res.status).toBe(200);
    const asyncApi = await json(res);
    expect(asyncApi.asyncapi).toBe("3.0.0");
    expect(Object.keys(asyncApi.components.messages)).toHaveLength(Object.keys(doc.webhooks).length);
    expect(Object.keys(asyncApi.components.messages)).toEqual(
      expect.arrayContaining(["AssetIssuanceProvisionalV1", "TokenTransferFinalV1"]),
    );
    const diagnostics = await new AsyncApiParser().validate(asyncApi);
    expect(diagnostics.filter((d) => d.severity === 0).map((d) => d.message)).toEqual([]);
    // Last, so the next test does not reuse a connection left idle through the validation (keep-alive race).
    const anonymous = await stack.api("/api/v2/webhooks/asyncapi.json", { key: null });
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();
  });

  it("serves a valid OpenAPI 3.1 document for v1 with only the legacy routes and the Form B error envelope", async () => {
    const res = await stack.api("/api/v1/spec.json", { key: null });
    expect(res.status).toBe(200);
    const doc = await json(res);
    await SwaggerParser.validate(structuredClone(doc));
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(V1_PATHS));
    for (const path of Object.keys(doc.paths)) {
      expect(path).toMatch(/^\/api\//);
      expect(path).not.toMatch(/^\/api\/v2\//);
    }
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["ApiKey", "SessionCookie"]);
    const legacyError = doc.components.schemas.LegacyError;
    expect(Object.keys(legacyError.properties.error.properties)).toEqual(FORM_B_FIELDS);
    expect(legacyError.properties.error.required).toEqual(FORM_B_FIELDS);
    expect(doc.components.schemas.Error).toBeUndefined();
    const holders = doc.paths["/api/token/{tokenAddress}/holders"].get;
    expect(holders.responses.default.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/LegacyError",
    });
  });

  it("sends the documents br- or gzip-compressed when allowed, decoding to the identity JSON, with cache validators", async () => {
    for (const specPath of ["/api/v2/spec.json", "/api/v1/spec.json"]) {
      const url = `${stack.platform.baseUrl}${specPath}`;
      const identity = await rawGet(url, { "accept-encoding": "identity" });
      expect(identity.status).toBe(200);
      expect(identity.headers["content-encoding"]).toBeUndefined();
      const expected = JSON.parse(identity.body.toString("utf8"));

      const br = await rawGet(url, { "accept-encoding": "gzip, deflate, br" });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(JSON.parse(brotliDecompressSync(br.body).toString("utf8"))).toEqual(expected);

      const gzip = await rawGet(url, { "accept-encoding": "gzip" });
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(JSON.parse(gunzipSync(gzip.body).toString("utf8"))).toEqual(expected);
      expect(gzip.body.length).toBeLessThan(identity.body.length);

      for (const res of [identity, br, gzip]) {
        expect(res.headers.vary).toMatch(/Accept-Encoding/i);
        expect(res.headers["cache-control"]).toMatch(/max-age=\d+/);
        expect(res.headers.etag).toBe(identity.headers.etag);
      }
      const etag = String(identity.headers.etag);
      expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
      const revalidated = await rawGet(url, { "accept-encoding": "br", "if-none-match": etag });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body.length).toBe(0);
    }
  });

  it("redirects bare /api to the v2 explorer", async () => {
    const res = await fetch(`${stack.platform.baseUrl}/api`, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/api/v2");
  });

  it("still requires an API key everywhere else under /api", async () => {
    expect((await stack.api("/api/v2/token-templates", { key: null })).status).toBe(401);
    expect(
      (await stack.api("/api/token/0x5FbDB2315678afecb367f032d93F642f64180aa3/holders", { key: null })).status,
    ).toBe(401);
  });

  describe("in headless Chromium with no network beyond this host", () => {
    let launched: Promise<Browser> | undefined;
    const blocked: string[] = [];
    const failedAssets: string[] = [];
    const pageErrors: string[] = [];

    /** Launched by the first test that needs it, so a missing Chromium fails each of these tests (never skips). */
    function browser(): Promise<Browser> {
      launched ??= existsSync(CHROMIUM)
        ? chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
        : Promise.reject(new Error(`Chromium is missing at ${CHROMIUM}: install it with apt-get install -y chromium`));
      return launched;
    }
    afterAll(async () => {
      await (await launched?.catch(() => undefined))?.close();
    });

    /** Opens the explorer, then the tags named (they start collapsed), and lists the operations shown. */
    async function openExplorer(path: string, open: string[] | "all") {
      const context = await (await browser()).newContext();
      await context.route("**/*", (route) => {
        const url = new URL(route.request().url());
        if (url.hostname === "127.0.0.1" || url.hostname === "localhost") return route.continue();
        blocked.push(url.href);
        return route.abort();
      });
      const page = await context.newPage();
      page.on("pageerror", (error) => pageErrors.push(error.message));
      page.on("response", (response) => {
        if (new URL(response.url()).pathname.startsWith("/api/v2/explorer/") && response.status() >= 400) {
          failedAssets.push(`${response.status()} ${response.url()}`);
        }
      });
      await page.goto(`${stack.platform.baseUrl}${path}`);
      const tagHeaders = page.locator(".opblock-tag");
      await tagHeaders.first().waitFor({ timeout: 60_000 });
      const tags = await tagHeaders.evaluateAll((headers) => headers.map((h) => h.getAttribute("data-tag")));
      const summaries = page.locator(".opblock-summary-path");
      for (const tag of open === "all" ? (tags as string[]) : open) {
        await page.locator(`.opblock-tag[data-tag="${tag}"]`).click();
        await page
          .locator(`#operations-tag-${tag.replaceAll(" ", "_")} ~ div .opblock-summary-path`)
          .first()
          .waitFor();
      }
      const listed = (await summaries.allTextContents()).map(withoutWordBreaks);
      return { context, page, tags, listed };
    }

    it("renders the v2 explorer from the host's own assets and lists the v2 routes", async () => {
      const { context, tags, listed } = await openExplorer("/api/v2", ["token"]);
      expect(tags).toEqual(expect.arrayContaining(["auth", "token", "addons", "system", "monitoring", "webhooks"]));
      expect(listed).toEqual(expect.arrayContaining(["/api/v2/token-templates", "/api/v2/tokens"]));
      expect(listed).not.toContain("/api/token/{tokenAddress}/holders");
      expect(blocked).toEqual([]);
      expect(failedAssets).toEqual([]);
      expect(pageErrors).toEqual([]);
      await context.close();
    });

    it("authorises with an API key and calls a route from the explorer", async () => {
      const { context, page } = await openExplorer("/api/v2", ["token"]);
      await page.locator(".auth-wrapper .btn.authorize").click();
      const apiKeyForm = page.locator(".auth-container").filter({ hasText: "X-Api-Key" });
      await apiKeyForm.locator("input").fill(stack.platform.credentials.apiKey);
      await apiKeyForm.locator("button.authorize").click();
      await page.locator(".dialog-ux button.close-modal").click();

      const operation = page.locator(".opblock.opblock-get").filter({
        has: page.locator('.opblock-summary-path[data-path="/api/v2/token-templates"]'),
      });
      await operation.locator(".opblock-summary").click();
      await operation.locator("button.try-out__btn").click();
      await operation.locator("button.execute").click();
      const status = operation.locator(".live-responses-table tr.response .response-col_status").first();
      await expect.poll(async () => (await status.textContent())?.trim(), { timeout: 30_000 }).toBe("200");
      expect(blocked).toEqual([]);
      await context.close();
    });

    it("renders the v1 explorer with the legacy routes", async () => {
      const { context, listed } = await openExplorer("/api/v1", "all");
      expect(listed).toContain("/api/token/{tokenAddress}/holders");
      expect(listed.some((path) => path.startsWith("/api/v2/"))).toBe(false);
      expect(blocked).toEqual([]);
      expect(failedAssets).toEqual([]);
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  });
});
