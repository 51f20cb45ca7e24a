import { describe, expect, it } from "vitest";
import type { Logger } from "./logger.ts";
import { throttledWarnings } from "./throttled-log.ts";

function recordingLogger() {
  const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
  const logger = {
    warn: (msg: string, fields?: Record<string, unknown>) => lines.push({ msg, fields }),
  } as unknown as Logger;
  return { lines, logger };
}

describe("throttledWarnings", () => {
  it("logs a key's first warning at once, then one per interval with how many were left out", () => {
    const { lines, logger } = recordingLogger();
    let clock = 0;
    const warn = throttledWarnings(logger, 10_000, () => clock);
    warn("chain", "no answer", { error: "timeout 1" });
    for (clock = 100; clock < 10_000; clock += 100) warn("chain", "no answer", { error: "timeout" });
    expect(lines).toEqual([{ msg: "no answer", fields: { error: "timeout 1" } }]);
    clock = 10_000;
    warn("chain", "no answer", { error: "timeout 2" });
    expect(lines[1]).toEqual({
      msg: "no answer",
      fields: { error: "timeout 2", leftOut: 99, leftOutSeconds: 10 },
    });
    // After a quiet interval: logged at once again, nothing left out.
    clock = 30_000;
    warn("chain", "no answer", { error: "timeout 3" });
    expect(lines[2]).toEqual({ msg: "no answer", fields: { error: "timeout 3" } });
  });

  it("throttles each key on its own", () => {
    const { lines, logger } = recordingLogger();
    const warn = throttledWarnings(logger, 10_000, () => 0);
    warn("chain", "node");
    warn("database", "database");
    warn("chain", "node");
    expect(lines.map((line) => line.msg)).toEqual(["node", "database"]);
  });
});
