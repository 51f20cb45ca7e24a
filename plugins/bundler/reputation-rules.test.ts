import { describe, expect, it } from "vitest";
import {
  DECAY_INTERVAL_MS,
  decayed,
  mempoolAllowance,
  penalized,
  reputationStatus,
  THROTTLED_ENTITY_MEMPOOL_COUNT,
  throttledLiveSince,
} from "./reputation-rules.ts";

const at = (hours: number) => new Date(Date.UTC(2026, 0, 1) + hours * DECAY_INTERVAL_MS);

describe("ERC-7562 reputation rules", () => {
  it("is ok until opsSeen // 10 exceeds opsIncluded by THROTTLING_SLACK, banned past BAN_SLACK", () => {
    expect(reputationStatus({ opsSeen: 0, opsIncluded: 0 })).toBe("ok");
    expect(reputationStatus({ opsSeen: 119, opsIncluded: 1 })).toBe("ok"); // 11 > 11 is false
    expect(reputationStatus({ opsSeen: 120, opsIncluded: 1 })).toBe("throttled"); // 12 > 11
    expect(reputationStatus({ opsSeen: 519, opsIncluded: 1 })).toBe("throttled"); // 51 > 51 is false
    expect(reputationStatus({ opsSeen: 520, opsIncluded: 1 })).toBe("banned"); // 52 > 51
    expect(reputationStatus({ opsSeen: 10_000, opsIncluded: 1_000 })).toBe("ok");
  });

  it("decays both counters by 23/24 (rounded down) for each whole hour, and keeps the partial hour", () => {
    const start = { opsSeen: 1000, opsIncluded: 25, decayedAt: at(0) };
    expect(decayed(start, new Date(at(1).getTime() - 1))).toEqual(start);
    expect(decayed(start, at(1))).toEqual({ opsSeen: 958, opsIncluded: 23, decayedAt: at(1) });
    const later = decayed(start, new Date(at(2).getTime() + 1000));
    expect(later).toEqual({ opsSeen: 918, opsIncluded: 22, decayedAt: at(2) }); // 958*23//24, 23*23//24
    // Stepwise equals at once, and after about four days a value is near 1 %.
    expect(decayed(decayed(start, at(1)), at(2))).toEqual(decayed(start, at(2)));
    expect(decayed(start, at(96)).opsSeen).toBeLessThanOrEqual(17);
    expect(decayed({ opsSeen: 5, opsIncluded: 0, decayedAt: at(0) }, at(1_000_000))).toMatchObject({
      opsSeen: 0,
      decayedAt: at(1_000_000),
    });
  });

  it("lets the mempool hold none of a banned entity, 4 of a throttled one, any of a staked ok one", () => {
    expect(mempoolAllowance({ opsSeen: 520, opsIncluded: 1 }, true)).toBe(0);
    expect(mempoolAllowance({ opsSeen: 120, opsIncluded: 1 }, true)).toBe(THROTTLED_ENTITY_MEMPOOL_COUNT);
    expect(mempoolAllowance({ opsSeen: 120, opsIncluded: 1 }, false)).toBe(THROTTLED_ENTITY_MEMPOOL_COUNT);
    expect(mempoolAllowance({ opsSeen: 50, opsIncluded: 0 }, true)).toBe(Number.POSITIVE_INFINITY);
  });

  it("gives an unstaked ok entity SAME_UNSTAKED_ENTITY_MEMPOOL_COUNT plus its inclusion record (UREP-020)", () => {
    expect(mempoolAllowance({ opsSeen: 0, opsIncluded: 0 }, false)).toBe(10);
    expect(mempoolAllowance({ opsSeen: 40, opsIncluded: 20 }, false)).toBe(10 + 5 + 20);
    expect(mempoolAllowance({ opsSeen: 20_000, opsIncluded: 20_000 }, false)).toBe(10 + 10 + 10_000);
  });

  it("bans an entity whose operation failed its bundle, staked or not (SREP-050, UREP-030)", () => {
    expect(reputationStatus(penalized(true))).toBe("banned");
    expect(reputationStatus(penalized(false))).toBe("banned");
  });

  it("keeps a throttled entity's operation THROTTLED_ENTITY_LIVE_BLOCKS blocks after its acceptance's head", () => {
    // Accepted at head 100: still live at 110 (100 >= 110 - 10), gone at 111 (100 < 101).
    expect(throttledLiveSince(110n)).toBe(100n);
    expect(throttledLiveSince(111n)).toBe(101n);
  });
});
