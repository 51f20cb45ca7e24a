// Pure parts of the indexer (src/ holds only indexing files: Ponder executes every file there).
import { describe, expect, it } from "vitest";
import { activityLinks, partyAndLinks } from "../../src/activity-links.ts";

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

describe("activityLinks and partyAndLinks", () => {
  const [sender, holder, receiver, signer] = [1, 2, 3, 4].map(
    (n) => `0x${n.toString(16).padStart(40, "0")}` as `0x${string}`,
  );

  it("leaves out the addresses whose feeds read the event otherwise (its sender, its log's token)", () => {
    const links = activityLinks({ participant: [sender, holder], account: [sender, holder] }, [sender]);
    expect(links).toEqual([{ address: holder, forParticipant: true, forAccount: true }]);
  });

  it("keeps the first address in both feeds as the event's party, and links the others", () => {
    const links = activityLinks({ participant: [signer, holder, receiver], account: [holder, receiver] });
    expect(partyAndLinks(links)).toEqual({
      party: holder,
      links: [
        { address: signer, forParticipant: true, forAccount: false },
        { address: receiver, forParticipant: true, forAccount: true },
      ],
    });
  });

  it("has no party when no address is in both feeds", () => {
    const links = activityLinks({ participant: [signer], account: [] });
    expect(partyAndLinks(links)).toEqual({ party: null, links });
    expect(partyAndLinks([])).toEqual({ party: null, links: [] });
  });
});
