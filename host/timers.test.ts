import { createServer } from "node:net";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { recordingLogger } from "../test/support/recording-logger.ts";
import { createLogger } from "./logger.ts";
import { startTimers } from "./timers.ts";

describe("timers", () => {
  it("logs a tick missed while the process was busy at debug, in the structured log, not on the console", async () => {
    const { logger, lines } = recordingLogger();
    const consoleWarn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const runs: number[] = [];
    const timers = startTimers(
      [{ name: "sampler", schedule: "* * * * * *", run: async () => void runs.push(Date.now()) }],
      logger,
    );
    try {
      await expect.poll(() => runs.length, { timeout: 3000 }).toBeGreaterThan(0);
      const busyUntil = Date.now() + 2500; // the event loop held, as a start's synchronous work holds it
      while (Date.now() < busyUntil);
      await expect
        .poll(() => lines.filter((l) => l.msg === "timer tick missed").length, { timeout: 3000 })
        .toBeGreaterThan(0);
      expect(lines.find((l) => l.msg === "timer tick missed")).toMatchObject({
        level: "debug",
        fields: { timer: "sampler" },
      });
      expect(consoleWarn).not.toHaveBeenCalled();
    } finally {
      consoleWarn.mockRestore();
      await timers.stop();
    }
  });

  it("skips a tick while the last run still goes at debug, and warns once of a run that goes on too long", async () => {
    const { logger, lines } = recordingLogger();
    let release = () => {};
    let runs = 0;
    const timers = startTimers(
      [
        {
          name: "flush",
          schedule: "* * * * * *",
          run: () => {
            runs += 1;
            return new Promise<void>((r) => {
              release = r;
            });
          },
        },
      ],
      logger,
      1500,
    );
    try {
      await expect.poll(() => runs, { timeout: 3000 }).toBe(1);
      await expect.poll(() => lines.filter((l) => l.msg === "timer run is slow").length, { timeout: 4000 }).toBe(1);
      expect(lines.find((l) => l.msg === "timer run is slow")).toMatchObject({
        level: "warn",
        fields: { timer: "flush", runningForMs: 1500 },
      });
      expect(lines.find((l) => l.msg.startsWith("timer tick skipped"))).toMatchObject({
        level: "debug",
        fields: { timer: "flush" },
      });
      expect(lines.filter((l) => l.level === "warn").map((l) => l.msg)).toEqual(["timer run is slow"]);
      expect(runs).toBe(1); // no second run while the first goes
      release();
      await expect.poll(() => runs, { timeout: 3000 }).toBe(2);
      release();
    } finally {
      await timers.stop();
    }
  });

  it("runs each entry on its schedule and, on stop, awaits the running run then calls stop()", async () => {
    const events: string[] = [];
    let release = () => {};
    const timers = startTimers(
      [
        {
          name: "flush",
          schedule: "* * * * * *", // every second
          async run() {
            events.push("run");
            await new Promise<void>((r) => {
              release = r;
            });
            events.push("run done");
          },
          async stop() {
            events.push("stop");
          },
        },
      ],
      createLogger("error"),
    );
    await expect.poll(() => events, { timeout: 3000 }).toContain("run");
    const stopping = timers.stop();
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual(["run"]); // stop() waits for the run in flight
    release();
    await stopping;
    expect(events).toEqual(["run", "run done", "stop"]);
    await new Promise((r) => setTimeout(r, 1200));
    expect(events).toHaveLength(3); // no run after stop
  });

  it("refuses an invalid schedule, naming the timer", () => {
    expect(() =>
      startTimers([{ name: "bad", schedule: "every minute", run: async () => {} }], createLogger("error")),
    ).toThrow('Timer "bad": invalid schedule "every minute"');
  });

  it("pauses a timer while the database is down and logs the outage once, not every run", async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    await new Promise((r) => server.close(r)); // nothing listens there: the "database" refuses every connection
    let up = false;
    const { logger, lines } = recordingLogger();
    const timers = startTimers(
      [
        {
          name: "flush",
          schedule: "* * * * * *",
          async run() {
            if (up) return;
            const client = new pg.Client({ connectionString: `postgres://x:y@127.0.0.1:${port}/z` });
            await client.connect();
          },
        },
      ],
      logger,
    );
    await new Promise((r) => setTimeout(r, 3500)); // three or four runs due
    up = true;
    await expect.poll(() => lines.length, { timeout: 5000 }).toBe(2);
    await timers.stop();
    expect(lines).toMatchObject([
      { level: "warn", msg: "timer flush: database unavailable; waiting for it" },
      { level: "info", msg: "timer flush: database back" },
    ]);
  });
});
