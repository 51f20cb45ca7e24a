import { appendFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../test/support/free-port.ts";
import { lastLines, movedPort, startPonder } from "./ponder.ts";
import { SetupError } from "./postgres-home.ts";

describe("the indexer's port", () => {
  const dir = mkdtempSync(join(tmpdir(), "ponder-port-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is refused at once when in use, naming PONDER_PORT (Ponder would move to the next one)", async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const started = Date.now();
      const start = startPonder({
        root: process.cwd(),
        databaseUrl: "postgres://127.0.0.1:1/none",
        chains: [],
        port,
        logFile: join(dir, "ponder.log"),
        dataDir: dir,
        schema: "unused",
      });
      await expect(start).rejects.toThrow(SetupError);
      await expect(start).rejects.toThrow(`the indexer's port ${port} (PONDER_PORT) is in use`);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      taken.close();
    }
  });

  it("is found moved from the warning Ponder logs, in this start's lines only", () => {
    const log = join(dir, "moved.log");
    appendFileSync(log, "10:00:00.000 WARN  Port in use port=42069\n"); // an earlier start's
    const from = statSync(log).size;
    appendFileSync(log, "10:00:01.000 INFO  Connected to database type=postgres\n");
    expect(movedPort(log, from)).toBe(false);
    appendFileSync(log, "10:00:01.100 WARN  Port in use port=42069\n");
    expect(movedPort(log, from)).toBe(true);
    expect(movedPort(join(dir, "none.log"), 0)).toBe(false);
  });

  it("names a failed start's last lines in its error: the log may be gone when the error is read", async () => {
    const start = startPonder({
      root: process.cwd(),
      databaseUrl: "postgres://platform:platform@127.0.0.1:1/none",
      chains: [],
      port: await freePort(),
      logFile: join(dir, "failed.log"),
      dataDir: dir,
      schema: "ponder_sync", // a name Ponder reserves: its build fails at once
    });
    await expect(start).rejects.toThrow(
      /ponder exited with code \d+; see .*failed\.log; its last lines:\n.* ERROR (.|\n)*"ponder_sync" is a reserved schema name/,
    );
  });

  it("takes the last lines from this start's, colours removed", () => {
    const log = join(dir, "lines.log");
    appendFileSync(log, "earlier start\n");
    const from = statSync(log).size;
    expect(lastLines(log, from)).toBe("");
    appendFileSync(
      log,
      "\u001b[31mERROR\u001b[39m one\n".concat(...Array.from({ length: 14 }, (_, i) => `line ${i}\n`)),
    );
    const lines = lastLines(log, from).split("\n");
    expect(lines[0]).toBe("; its last lines:");
    expect(lines.slice(1)).toEqual(Array.from({ length: 12 }, (_, i) => `line ${i + 2}`)); // no ERROR among them
    appendFileSync(
      log,
      "10:00:02.000 ERROR uncaughtException\nError: listen EADDRINUSE\n10:00:02.001 WARN  Started shutdown\n",
    );
    expect(lastLines(log, from)).toBe(
      "; its last lines:\n10:00:02.000 ERROR uncaughtException\nError: listen EADDRINUSE\n10:00:02.001 WARN  Started shutdown",
    );
  });
});
