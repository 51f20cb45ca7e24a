import { describe, expect, it } from "vitest";
import { parseCollectionQuery } from "../../host/collections/index.ts";
import { eligibilityPage, PARTICIPANT_COLLECTION, ParticipantListQuerySchema, withRouteSort } from "./collections.ts";

const query = (search = "") => parseCollectionQuery(new URLSearchParams(search), PARTICIPANT_COLLECTION);

describe("withRouteSort", () => {
  it("keeps the collection's sort when the route's keys are absent", () => {
    const parsed = query("sort=-kind");
    expect(withRouteSort(parsed, { purpose: "transfer" })).toBe(parsed);
  });

  it("sorts by sortBy, ascending unless sortDirection says otherwise", () => {
    expect(withRouteSort(query(), { purpose: "transfer", sortBy: "kind" }).sort).toEqual({
      field: "kind",
      direction: "asc",
    });
    expect(withRouteSort(query(), { purpose: "transfer", sortDirection: "desc" }).sort).toEqual({
      field: "displayName",
      direction: "desc",
    });
  });
});

describe("eligibilityPage", () => {
  const judged = ["a", "b", "c", "d", "e"].map((id, i) => ({ id, eligible: i % 2 === 0 }));

  it("hides the ineligible, counts them, and pages what is left", () => {
    expect(eligibilityPage(judged, false, { offset: 0, limit: 2 })).toEqual({
      rows: [judged[0], judged[2]],
      total: 3,
      hidden: 2,
    });
    expect(eligibilityPage(judged, false, { offset: 2, limit: 2 }).rows).toEqual([judged[4]]);
  });

  it("with reveal lists everyone with the flag and reports nothing hidden", () => {
    expect(eligibilityPage(judged, true, { offset: 1, limit: 3 })).toEqual({
      rows: judged.slice(1, 4),
      total: 5,
      hidden: undefined,
    });
  });
});

describe("ParticipantListQuerySchema", () => {
  it("requires a known purpose and a known eligibility action", () => {
    expect(ParticipantListQuerySchema.safeParse({}).success).toBe(false);
    expect(ParticipantListQuerySchema.safeParse({ purpose: "voting" }).success).toBe(false);
    expect(ParticipantListQuerySchema.safeParse({ purpose: "identity" }).success).toBe(true);
    const action = (a: string) => ({ purpose: "transfer", "eligibleForToken[action]": a });
    expect(ParticipantListQuerySchema.safeParse(action("burn")).success).toBe(true);
    expect(ParticipantListQuerySchema.safeParse(action("freeze")).success).toBe(false);
  });
});
