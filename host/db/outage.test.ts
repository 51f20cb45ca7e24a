import { createServer } from "node:net";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { recordingLogger } from "../../test/support/recording-logger.ts";
import { databaseOutage, isDatabaseUnavailable } from "./outage.ts";

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe("isDatabaseUnavailable", () => {
  it("tells a database that cannot be reached from a query that failed", async () => {
    const client = new pg.Client({ connectionString: `postgres://x:y@127.0.0.1:${await closedPort()}/z` });
    const refused = await client.connect().catch((error) => error);
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error("the database system is starting up"), { code: "57P03" })),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("relation does not exist"), { code: "42P01" }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("could not serialize"), { code: "40001" }))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe("databaseOutage", () => {
  const down = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });

  it("backs off while the database is down and logs the outage once when it starts and once when it ends", () => {
    const { logger, lines } = recordingLogger();
    let clock = 0;
    const outage = databaseOutage(logger, "index lifecycle", { initialMs: 100, maxMs: 1000 }, () => clock);
    const waits = Array.from({ length: 200 }, () => {
      clock += 100;
      return outage.failed(down);
    });
    expect(waits.slice(0, 6)).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(outage.down()).toBe(true);
    clock += 5000;
    outage.succeeded();
    outage.succeeded();
    expect(outage.down()).toBe(false);
    expect(lines).toMatchObject([
      { level: "warn", msg: "index lifecycle: database unavailable; waiting for it" },
      { level: "info", msg: "index lifecycle: database back" },
    ]);
    // A second outage starts from the shortest wait again, and is logged again.
    expect(outage.failed(down)).toBe(100);
    expect(lines).toHaveLength(3);
  });

  it("leaves other failures to the caller", () => {
    const { logger, lines } = recordingLogger();
    const outage = databaseOutage(logger, "timer");
    expect(outage.failed(new Error("boom"))).toBeUndefined();
    expect(outage.down()).toBe(false);
    expect(lines).toMatchObject([]);
  });
});
