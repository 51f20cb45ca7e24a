import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import {
  ephemeralLow,
  FETCH_BLOCKED_PORTS,
  freeConsecutivePorts,
  freePort,
  portPicker,
  portSlice,
} from "./free-port.ts";

describe("free ports for test listeners", () => {
  it("are picked below the kernel's ephemeral range, where no outgoing connection takes them", async () => {
    const low = ephemeralLow();
    const ports = [];
    for (let i = 0; i < 20; i++) ports.push(await freePort());
    for (const port of ports) expect(port).toBeLessThan(low);
    expect(new Set(ports).size).toBe(ports.length); // one after another, none handed out twice
  });

  it("gives each vitest worker a slice of its own", () => {
    const slices = [0, 1, 2, 3].map((worker) => portSlice(32_768, worker));
    for (const [i, s] of slices.entries()) {
      expect(s.to).toBeLessThanOrEqual(32_768);
      if (i > 0) expect(s.from).toBeGreaterThanOrEqual(slices[i - 1].to);
    }
  });

  it("never hands out a port fetch refuses to connect to", async () => {
    // Why: viem's HTTP transport (undici's fetch) fails on it with "bad port", whatever listens there.
    const refused = await fetch("http://127.0.0.1:10080/").then(
      () => undefined,
      (error: Error) => String((error.cause as Error | undefined)?.message),
    );
    expect(refused).toBe("bad port");
    expect(FETCH_BLOCKED_PORTS.has(10_080)).toBe(true);
    // A slice around it: the block holding it is skipped, the next is handed out.
    const pick = portPicker({ from: 10_078, to: 10_090 }, 10_078);
    expect(await pick(3)).toBe(10_081);
  });

  it("skips a port something listens on", async () => {
    const first = await freeConsecutivePorts(3);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(first + 4, "127.0.0.1", resolve));
    try {
      // The next block would be first+3..first+5 (unless the slice wrapped): it holds the taken port, so it is skipped.
      const next = await freeConsecutivePorts(3);
      expect([next, next + 1, next + 2]).not.toContain(first + 4);
    } finally {
      server.close();
    }
  });
});
