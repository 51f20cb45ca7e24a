import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../test/support/free-port.ts";
import { type Database, startPostgres } from "./postgres.ts";

const isRoot = process.getuid?.() === 0;
const temps: string[] = [];
const servers: Database[] = [];
function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The embedded server of a fresh data dir; as root its cluster (and socket) under a base of `baseName`. */
async function started(baseName = "pgb-"): Promise<Database> {
  const server = await startPostgres({ dataDir: temp("pg-data-"), port: await freePort(), systemBase: temp(baseName) });
  servers.push(server);
  return server;
}

/** How a connection to `url` reached the server: its client address (null over a Unix socket). */
async function clientAddress(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ address: string | null }>("select host(inet_client_addr()) as address")).rows[0]!
      .address;
  } finally {
    await client.end();
  }
}

describe("the embedded PostgreSQL's connections", () => {
  it("hands out its Unix socket (cheaper than loopback TCP) and still listens on 127.0.0.1", async () => {
    const server = await started();
    const socketDir = new URL(server.url).searchParams.get("host");
    expect(socketDir).toBeTruthy();
    expect(await clientAddress(server.url)).toBeNull();
    const tcp = new URL(server.url);
    tcp.search = "";
    expect(await clientAddress(tcp.toString())).toBe("127.0.0.1");
    await server.stop();
    servers.splice(0);
    // A folder of its own in the temp dir goes with the server; beside a root-started cluster it stays (the
    // server's user's, reused by the next start).
    expect(existsSync(socketDir!)).toBe(isRoot);
  });

  it("serves over TCP alone when the socket's path would be too long", async () => {
    const long = `pgb-${"x".repeat(100)}-`;
    const previous = process.env.TMPDIR;
    if (!isRoot) process.env.TMPDIR = temp(long); // an ordinary user's socket folder is made in the temp dir
    try {
      const server = await started(long);
      expect(new URL(server.url).searchParams.get("host")).toBeNull();
      expect(await clientAddress(server.url)).toBe("127.0.0.1");
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
  });
});
