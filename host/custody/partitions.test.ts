import { describe, expect, it } from "vitest";
import { classificationAllows } from "./classification.ts";
import { partitionState } from "./partitions.ts";

describe("custody partitions", () => {
  const now = new Date("2026-01-01T12:00:00Z");
  const row = (activeUntil: Date | null) => ({ id: "p", organizationId: "o", activeUntil });

  it("is active until its activation ends, activating with approvals pending, expired after an activation", () => {
    expect(partitionState(row(null), 0, now)).toBe("inactive");
    expect(partitionState(row(null), 1, now)).toBe("activating");
    expect(partitionState(row(new Date("2026-01-01T12:00:01Z")), 0, now)).toBe("active");
    expect(partitionState(row(new Date("2026-01-01T11:59:59Z")), 0, now)).toBe("expired");
    expect(partitionState(row(new Date("2026-01-01T11:59:59Z")), 1, now)).toBe("activating");
  });

  it("lets a treasury key move value but not mint; an operational key signs every kind", () => {
    expect(classificationAllows("treasury", "token.transfer")).toBe(true);
    expect(classificationAllows("treasury", "token.mint")).toBe(false);
    expect(classificationAllows("operational", "token.mint")).toBe(true);
  });
});
