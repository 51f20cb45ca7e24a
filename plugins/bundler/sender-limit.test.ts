import { describe, expect, it } from "vitest";
import { MAX_PENDING_PER_SENDER, waitingCount } from "./sender-limit.ts";

describe("the sender's mempool limit", () => {
  it("counts the operations still waiting, not those a bundle carries", () => {
    const rows = (statuses: string[]) => statuses.map((status) => ({ status }));
    expect(waitingCount(rows(["pending", "pending", "pending", "submitted", "submitted"]))).toBe(3);
    expect(waitingCount(rows(["submitted", "submitted", "submitted", "submitted"]))).toBe(0);
    expect(waitingCount(rows(["pending", "pending", "pending", "pending", "submitted"]))).toBe(MAX_PENDING_PER_SENDER);
  });
});
