import { describe, expect, it } from "vitest";
import { createLastUsedRecorder } from "./last-used.ts";

describe("the last-used recorder", () => {
  it("writes a key's use at most once per interval, per key, and again after a failed write", async () => {
    const writes: string[] = [];
    let clock = 0;
    let fail = false;
    const recorder = createLastUsedRecorder(
      async (id) => {
        writes.push(id);
        if (fail) throw new Error("down");
      },
      60_000,
      () => clock,
    );
    recorder.touch("a");
    recorder.touch("a");
    recorder.touch("b");
    clock = 59_999;
    recorder.touch("a");
    expect(writes).toEqual(["a", "b"]);
    clock = 60_000;
    fail = true;
    recorder.touch("a");
    await new Promise((r) => setImmediate(r));
    fail = false;
    recorder.touch("a"); // the failed write is forgotten: tried again
    expect(writes).toEqual(["a", "b", "a", "a"]);
  });
});
