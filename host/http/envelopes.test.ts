import { type Context, Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "./env.ts";
import { collection, linkPath, single } from "./envelopes.ts";

// biome-ignore lint/suspicious/noExplicitAny: the test reads arbitrary JSON bodies
async function render(url: string, fn: (c: Context<AppEnv>) => Response): Promise<any> {
  const app = new Hono<AppEnv>();
  app.get("*", fn);
  return (await app.request(url)).json();
}

describe("envelopes", () => {
  it("writes v2 link paths as /v2/...", () => {
    expect(linkPath("/api/v2/tokens/0xabc")).toBe("/v2/tokens/0xabc");
    expect(linkPath("/api/token/0xabc/holders")).toBe("/api/token/0xabc/holders");
  });

  it("wraps a single resource with links.self", async () => {
    const body = await render("http://x/api/v2/token/0x1", (c) => c.json(single(c, { id: 1 })));
    expect(body).toEqual({ data: { id: 1 }, links: { self: "/v2/token/0x1" } });
  });

  it("gives next exactly when offset + limit < total, and null prev on the first page", async () => {
    const first = await render("http://x/api/v2/things?page[limit]=2", (c) =>
      c.json(collection(c, [1, 2], 5, { offset: 0, limit: 2 })),
    );
    expect(first.meta).toEqual({ total: 5 });
    expect(first.links.prev).toBeNull();
    expect(decodeURIComponent(first.links.next)).toBe("/v2/things?page[limit]=2&page[offset]=2");
    expect(decodeURIComponent(first.links.last)).toBe("/v2/things?page[limit]=2&page[offset]=4");

    const last = await render("http://x/api/v2/things", (c) => c.json(collection(c, [5], 5, { offset: 4, limit: 2 })));
    expect(last.links.next).toBeNull();
    expect(decodeURIComponent(last.links.prev)).toBe("/v2/things?page[offset]=2&page[limit]=2");

    const exact = await render("http://x/api/v2/things", (c) =>
      c.json(collection(c, [3, 4], 4, { offset: 2, limit: 2 })),
    );
    expect(exact.links.next).toBeNull();
  });

  it("keeps facets under meta", async () => {
    const body = await render("http://x/api/v2/things", (c) =>
      c.json(collection(c, [], 0, { offset: 0, limit: 50 }, { kind: [{ value: "a", count: 0 }] })),
    );
    expect(body.meta).toEqual({ total: 0, facets: { kind: [{ value: "a", count: 0 }] } });
    expect(body.links.next).toBeNull();
  });
});
