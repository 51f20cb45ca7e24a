import { createServer } from "node:net";
import { Hono } from "hono";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { recordingLogger } from "../../test/support/recording-logger.ts";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv } from "./env.ts";
import { handleError } from "./error-handler.ts";

/** A port nothing listens on: PostgreSQL killed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** An app whose one route throws `error`, behind the host's error handler. */
function app(error: () => Promise<unknown>) {
  const { logger, lines } = recordingLogger();
  const hono = new Hono<AppEnv>();
  hono.onError(handleError(logger));
  hono.post("/api/v2/thing", async () => {
    throw await error();
  });
  return { request: () => hono.request("/api/v2/thing", { method: "POST" }), lines };
}

describe("the error handler while the database cannot be reached", () => {
  const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

  it.each([
    [
      "a refused connection (kysely over a pg pool, PostgreSQL killed)",
      async () => {
        const db = new Kysely<{ t: { a: number } }>({
          dialect: new PostgresDialect({
            pool: new pg.Pool({ connectionString: `postgres://x:y@127.0.0.1:${await closedPort()}/z` }),
          }),
        });
        const error = await db
          .selectFrom("t")
          .selectAll()
          .execute()
          .catch((e: unknown) => e);
        await db.destroy();
        return error;
      },
    ],
    ["57P01 admin shutdown", async () => pgError("57P01", "terminating connection due to administrator command")],
    ["57P03 cannot connect now", async () => pgError("57P03", "the database system is starting up")],
    ["Connection terminated", async () => new Error("Connection terminated unexpectedly")],
    ["a wrapped cause", async () => new Error("job not added", { cause: pgError("ECONNREFUSED", "connect refused") })],
  ])("answers %s 503 SERVICE_UNAVAILABLE with Retry-After, never a 500", async (_, error) => {
    const { request, lines } = app(error);
    const res = await request();
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      data: { id: "SVC-0083", retryable: true, retryAfterSeconds: 1 },
    });
    expect(lines).toEqual([]); // an outage is not an unhandled error
  });

  it("gives every 503 a Retry-After, e.g. AUTH_STORE_UNAVAILABLE", async () => {
    const res = await app(async () => new ApiError("AUTH_STORE_UNAVAILABLE")).request();
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
  });

  it("still answers a query that failed on its own 500", async () => {
    const { request, lines } = app(async () => pgError("42P01", 'relation "x" does not exist'));
    expect((await request()).status).toBe(500);
    expect(lines).toMatchObject([{ level: "error", msg: "unhandled error" }]);
  });
});
