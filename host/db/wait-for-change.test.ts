import { describe, expect, it } from "vitest";
import type { ChannelListener, ChannelMessage } from "./notifications.ts";
import { waitForChange } from "./wait-for-change.ts";

/** A listener whose notifications the test sends (the LISTEN connection itself is tested by the e2e suites). */
function testListener(options: { fails?: boolean } = {}) {
  const subscribers = new Map<string, Set<ChannelMessage>>();
  const listener: ChannelListener = {
    async subscribe(key, onMessage) {
      if (options.fails) throw new Error("connection refused");
      const set = subscribers.get(key) ?? new Set();
      set.add(onMessage);
      subscribers.set(key, set);
      return () => set.delete(onMessage);
    },
  };
  const notify = (key: string) => {
    for (const onMessage of subscribers.get(key) ?? []) onMessage(key);
  };
  const count = (key: string) => subscribers.get(key)?.size ?? 0;
  return { listener, notify, count };
}

describe("waitForChange", () => {
  it("reads again when the row's key is notified, not on a timer, and unsubscribes", async () => {
    const { listener, notify, count } = testListener();
    let state = "QUEUED";
    let reads = 0;
    const started = Date.now();
    const waiting = waitForChange({
      listener,
      key: "r1",
      read: async () => {
        reads += 1;
        return state;
      },
      done: (value) => value === "COMPLETED",
      deadline: started + 10_000,
      fallbackMs: 5_000,
    });
    await new Promise((r) => setTimeout(r, 50));
    notify("other"); // another row's change wakes no one
    state = "SIGNED";
    notify("r1");
    await new Promise((r) => setTimeout(r, 50));
    state = "COMPLETED";
    notify("r1");
    expect(await waiting).toBe("COMPLETED");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(reads).toBe(3);
    expect(count("r1")).toBe(0);
  });

  it("answers the newest read at the deadline", async () => {
    const { listener } = testListener();
    const started = Date.now();
    const value = await waitForChange({
      listener,
      key: "r2",
      read: async () => "QUEUED",
      done: () => false,
      deadline: started + 200,
      fallbackMs: 5_000,
    });
    expect(value).toBe("QUEUED");
    expect(Date.now() - started).toBeGreaterThanOrEqual(195);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("falls back to slow reads when the listener cannot connect (the database restarting)", async () => {
    const { listener } = testListener({ fails: true });
    let reads = 0;
    const value = await waitForChange({
      listener,
      key: "r3",
      read: async () => ++reads,
      done: (n) => n === 3,
      deadline: Date.now() + 5_000,
      fallbackMs: 20,
    });
    expect(value).toBe(3);
  });

  it("reads again at once when the row changed while it was being read", async () => {
    const { listener, notify } = testListener();
    let reads = 0;
    const value = await waitForChange({
      listener,
      key: "r4",
      read: async () => {
        reads += 1;
        if (reads === 1) notify("r4"); // committed between the read's query and its answer
        return reads;
      },
      done: (n) => n === 2,
      deadline: Date.now() + 5_000,
      fallbackMs: 5_000,
    });
    expect(value).toBe(2);
  });
});
