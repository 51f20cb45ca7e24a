import { describe, expect, it } from "vitest";
import { liveWriteRequest, MAX_WRITE_ATTEMPTS, moveWriteKey } from "./move-write-attempts.ts";

/** Requests by Idempotency-Key as the pipeline keeps them: a repeat of a key answers its first request. */
function pipeline(statuses: Record<string, string> = {}) {
  const asked: string[] = [];
  const submitAt = async (key: string) => {
    asked.push(key);
    const status = statuses[key] ?? "QUEUED";
    statuses[key] = status;
    return { id: `req:${key}`, status };
  };
  return { asked, submitAt };
}

describe("a move's write asked for again", () => {
  it("keeps its first key and attaches to its request while that one is live or done", async () => {
    for (const status of ["QUEUED", "COMPLETED", "DEAD_LETTER"]) {
      const { asked, submitAt } = pipeline({ [moveWriteKey("m1", "grant:a", 0)]: status });
      expect(await liveWriteRequest(submitAt, "m1", "grant:a")).toBe("req:custody-migration:m1:grant:a");
      expect(asked).toEqual(["custody-migration:m1:grant:a"]);
    }
  });

  it("asks again under the next attempt when the earlier ones failed or were cancelled", async () => {
    const { asked, submitAt } = pipeline({
      "custody-migration:m1:accept:x": "FAILED",
      "custody-migration:m1:accept:x:1": "CANCELLED",
    });
    expect(await liveWriteRequest(submitAt, "m1", "accept:x")).toBe("req:custody-migration:m1:accept:x:2");
    expect(asked).toHaveLength(3);
    // A third run finds the second attempt's request (now live), not a fourth.
    expect(await liveWriteRequest(submitAt, "m1", "accept:x")).toBe("req:custody-migration:m1:accept:x:2");
  });

  it("stops at the last attempt", async () => {
    const failing = async (key: string) => ({ id: key, status: "FAILED" });
    expect(await liveWriteRequest(failing, "m1", "k")).toBe(moveWriteKey("m1", "k", MAX_WRITE_ATTEMPTS - 1));
  });
});
