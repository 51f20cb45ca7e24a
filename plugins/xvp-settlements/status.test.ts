// The status follows the outcome first, then the cutoff, then the approvals.
import { describe, expect, it } from "vitest";
import { settlementStatus } from "./status.ts";

const base = {
  executedAt: null,
  cancelledAt: null,
  cutoff: 1000n,
  approvals: [{ approved: true }, { approved: false }],
};

describe("settlementStatus", () => {
  it("is PENDING until every party approved, then APPROVED", () => {
    expect(settlementStatus(base, 999n)).toBe("PENDING");
    expect(settlementStatus({ ...base, approvals: [{ approved: true }] }, 1000n)).toBe("APPROVED");
  });

  it("is EXPIRED once the chain is past the cutoff, whatever the approvals", () => {
    expect(settlementStatus({ ...base, approvals: [{ approved: true }] }, 1001n)).toBe("EXPIRED");
  });

  it("keeps EXECUTED and CANCELLED after the cutoff", () => {
    expect(settlementStatus({ ...base, executedAt: 900n }, 2000n)).toBe("EXECUTED");
    expect(settlementStatus({ ...base, cancelledAt: 900n }, 2000n)).toBe("CANCELLED");
  });
});
