// The creation body: flows and a cutoff the contract can take (a date before 1970 is no uint64), a bytes32 hashlock.
import { describe, expect, it } from "vitest";
import { CreateXvpSettlementBodySchema } from "./schemas.ts";

const flow = {
  asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  to: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  amount: "10",
};
const parse = (body: Record<string, unknown>) =>
  CreateXvpSettlementBodySchema.safeParse({ flows: [flow], cutoffDate: "2030-01-01T00:00:00Z", ...body });

describe("the XvP settlement creation body", () => {
  it("takes flows, an ISO cutoffDate (as a Date) and an optional bytes32 hashlock", () => {
    const parsed = parse({ hashlock: `0x${"ab".repeat(32)}` });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.cutoffDate).toEqual(new Date("2030-01-01T00:00:00Z"));
  });

  it("refuses no flows, a malformed amount or address, a cutoff before 1970 and a short hashlock", () => {
    expect(parse({ flows: [] }).success).toBe(false);
    expect(parse({ flows: [{ ...flow, amount: "-1" }] }).success).toBe(false);
    expect(parse({ flows: [{ ...flow, to: "0x1234" }] }).success).toBe(false);
    expect(parse({ cutoffDate: "1960-01-01T00:00:00Z" }).success).toBe(false);
    expect(parse({ cutoffDate: "tomorrow" }).success).toBe(false);
    expect(parse({ hashlock: "0xabcd" }).success).toBe(false);
  });
});
