// Pure parts of the indexer (src/ holds only indexing files: Ponder executes every file there).
import { describe, expect, it } from "vitest";
import { activityLinks } from "../../src/activity-links.ts";

describe("activityLinks", () => {
  it("links each distinct address once, lowercase, to the feeds whose rule names it; never address zero", () => {
    const links = activityLinks({
      participant: ["0xAbC0000000000000000000000000000000000001", "0x0000000000000000000000000000000000000002"],
      account: [
        "0xabc0000000000000000000000000000000000001",
        "0x0000000000000000000000000000000000000003",
        "0x0000000000000000000000000000000000000000",
      ],
    });
    expect(links).toEqual([
      { address: "0xabc0000000000000000000000000000000000001", forParticipant: true, forAccount: true },
      { address: "0x0000000000000000000000000000000000000002", forParticipant: true, forAccount: false },
      { address: "0x0000000000000000000000000000000000000003", forParticipant: false, forAccount: true },
    ]);
  });
});
