import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.ts";
import { startTimers } from "./timers.ts";

describe("timers", () => {
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
});
