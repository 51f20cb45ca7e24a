import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { portPicker } from "./free-port.ts";
import { releaseAll, removeStaleReservations, reservePorts } from "./port-reservations.ts";

describe("test ports reserved across processes", () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "port-reservations-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    releaseAll();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A live process other than this one (a sleeping node), and its end. */
  async function otherProcess() {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    await new Promise((resolve) => child.once("spawn", resolve));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    return {
      pid: child.pid!,
      async end() {
        child.kill("SIGKILL");
        await exited;
      },
    };
  }

  it("hands a block to one process only: a picker sharing the slice skips what another holds", async () => {
    const dir = freshDir();
    const other = await otherProcess();
    try {
      // Another process picked 30001-30003 and has not listened yet: nothing tells a bind check it is taken.
      for (const port of [30_001, 30_002, 30_003]) writeFileSync(join(dir, String(port)), String(other.pid));
      const pick = portPicker({ from: 30_001, to: 30_010 }, 30_001, (first, count) => reservePorts(first, count, dir));
      expect(await pick(3)).toBe(30_004);
      expect(readFileSync(join(dir, "30004"), "utf8")).toBe(String(process.pid));
    } finally {
      await other.end();
    }
  });

  it("takes over the reservations of a process that is gone, and reserves a block all or none", async () => {
    const dir = freshDir();
    const other = await otherProcess();
    writeFileSync(join(dir, "30002"), String(other.pid));
    expect(reservePorts(30_001, 3, dir)).toBe(false);
    expect(existsSync(join(dir, "30001"))).toBe(false); // the first port of the refused block is not kept
    await other.end();
    expect(reservePorts(30_001, 3, dir)).toBe(true);
    expect(readFileSync(join(dir, "30002"), "utf8")).toBe(String(process.pid));
    // Its own reservations are not handed out again by this process either (a later test file's picker).
    expect(reservePorts(30_003, 1, dir)).toBe(false);
    releaseAll();
    expect(existsSync(join(dir, "30002"))).toBe(false);
  });

  it("removes only the reservations of processes that are gone at the run's end", async () => {
    const dir = freshDir();
    const [gone, live] = [await otherProcess(), await otherProcess()];
    try {
      writeFileSync(join(dir, "30001"), String(gone.pid));
      writeFileSync(join(dir, "30002"), String(live.pid));
      await gone.end();
      removeStaleReservations(dir);
      expect(readdirSync(dir)).toEqual(["30002"]);
    } finally {
      await live.end();
    }
  });
});
