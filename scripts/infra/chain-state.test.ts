import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { pendingPath, writeFileAtomically } from "./atomic-file.ts";
import { adoptExitDump, compactState, StateRefused, saveState, startFromState, stateFiles } from "./chain-state.ts";

const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "chain-state-"));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const state = (n: number) => gzipSync(JSON.stringify({ block: { number: n }, accounts: {} }));
/** What a start was handed: the number in the loaded state. */
const loadedNumber = (loadFile: string | undefined) =>
  loadFile ? (JSON.parse(readFileSync(loadFile, "utf8")).block.number as number) : undefined;
const savedNumber = (file: string) => JSON.parse(gunzipSync(readFileSync(file)).toString()).block.number as number;

describe("the atomic file writer", () => {
  it("replaces the file whole, keeping the replaced one, and leaves no pending file", () => {
    const dir = temp();
    const path = join(dir, "f");
    writeFileAtomically(path, "one", { keep: join(dir, "f.prev") });
    writeFileAtomically(path, "two", { keep: join(dir, "f.prev") });
    expect(readFileSync(path, "utf8")).toBe("two");
    expect(readFileSync(join(dir, "f.prev"), "utf8")).toBe("one");
    expect(existsSync(pendingPath(path))).toBe(false);
  });

  it("a write killed before its rename (a torn pending file) leaves the file as it was", () => {
    const dir = temp();
    const path = join(dir, "f");
    writeFileAtomically(path, "good");
    writeFileSync(pendingPath(path), "to"); // what a kill midway leaves
    expect(readFileSync(path, "utf8")).toBe("good");
    writeFileAtomically(path, "next"); // and the next write is not disturbed by it
    expect(readFileSync(path, "utf8")).toBe("next");
  });
});

describe("the chain state files", () => {
  it("starts from the newest state, each save keeping the one before", async () => {
    const files = stateFiles(temp());
    expect(
      await startFromState(
        files,
        () => {},
        async (f) => loadedNumber(f),
      ),
    ).toBeUndefined(); // a new chain
    saveState(files, state(1));
    saveState(files, state(2));
    expect(savedNumber(files.kept)).toBe(1);
    expect(
      await startFromState(
        files,
        () => {},
        async (f) => loadedNumber(f),
      ),
    ).toBe(2);
    expect(existsSync(files.loading)).toBe(false); // the decompressed copy is gone once anvil has it
  });

  it("falls back to the kept copy when the newest is torn, saying so in one line naming the file", async () => {
    const files = stateFiles(temp());
    saveState(files, state(1));
    saveState(files, state(2));
    truncateSync(files.current, 20); // a write cut short
    const said: string[] = [];
    expect(
      await startFromState(
        files,
        (line) => said.push(line),
        async (f) => loadedNumber(f),
      ),
    ).toBe(1);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`The chain state ${files.current} cannot be loaded`);
    expect(said[0]).toContain(`loading the kept copy ${files.kept}`);
    expect(existsSync(`${files.current}.unreadable`)).toBe(true); // aside, so the next save keeps the good copy
    saveState(files, state(3));
    expect(savedNumber(files.kept)).toBe(1);
  });

  it("falls back when anvil refuses the newest, and fails in one line naming the file when none is left", async () => {
    const files = stateFiles(temp());
    saveState(files, state(1));
    saveState(files, state(2));
    const refuseTwo = async (f: string | undefined) => {
      if (loadedNumber(f) === 2) throw new StateRefused("missing field `block`");
      return loadedNumber(f);
    };
    expect(await startFromState(files, () => {}, refuseTwo)).toBe(1);

    const alone = stateFiles(temp());
    writeFileSync(alone.current, ""); // the 0-byte file a kill left
    await expect(
      startFromState(
        alone,
        () => {},
        async () => 0,
      ),
    ).rejects.toThrow(new RegExp(`^The chain state ${alone.current} cannot be loaded \\(.*\\); no other copy is left`));
    expect(existsSync(alone.current)).toBe(true); // left for the operator to mend or remove
  });

  it("loads the file anvil's own --state wrote before, when there is no newer one", async () => {
    const files = stateFiles(temp());
    writeFileSync(files.legacy, JSON.stringify({ block: { number: 7 } }));
    expect(
      await startFromState(
        files,
        () => {},
        async (f) => loadedNumber(f),
      ),
    ).toBe(7);
    saveState(files, state(8));
    expect(existsSync(files.legacy)).toBe(false);
  });

  it("compacts a dump: every transaction's call trace dropped, the rest as it was", async () => {
    const dump = {
      block: { number: 3 },
      accounts: { "0x01": { code: "0x60" } },
      blocks: [{ header: { number: "0x1" } }],
      transactions: [{ info: { transaction_hash: "0xaa", traces: [{ trace: { data: "0x".padEnd(10_000, "ab") } }] } }],
      historical_states: null,
    };
    const hex = `0x${gzipSync(JSON.stringify(dump)).toString("hex")}`;
    const compacted = JSON.parse(gunzipSync(await compactState(hex)).toString());
    expect(compacted).toEqual({ ...dump, transactions: [{ info: { transaction_hash: "0xaa", traces: [] } }] });
  });
});

describe("anvil's own dump at its last stop", () => {
  const exitDump = (files: ReturnType<typeof stateFiles>, n: number, ageSeconds = 0) => {
    writeFileSync(files.exitDump, JSON.stringify({ block: { number: n }, accounts: {} }));
    const at = Date.now() / 1000 - ageSeconds;
    utimesSync(files.exitDump, at, at);
  };

  it("is adopted as the newest state when it is whole and newer than the last save (a supervisor killed)", async () => {
    const files = stateFiles(temp());
    saveState(files, state(1));
    const saved = Date.now() / 1000 - 60;
    utimesSync(files.current, saved, saved);
    exitDump(files, 2);
    const lines: string[] = [];
    expect(
      await startFromState(
        files,
        (l) => lines.push(l),
        async (f) => loadedNumber(f),
      ),
    ).toBe(2);
    expect(savedNumber(files.current)).toBe(2);
    expect(savedNumber(files.kept)).toBe(1);
    expect(existsSync(files.exitDump)).toBe(false);
    expect(lines).toEqual([]);
  });

  it("is set aside with one line when torn (killed while anvil wrote it), the last save loaded", async () => {
    const files = stateFiles(temp());
    saveState(files, state(1));
    writeFileSync(files.exitDump, '{"block": {"numb'); // what a kill while anvil wrote it leaves
    const later = Date.now() / 1000 + 5;
    utimesSync(files.exitDump, later, later);
    const lines: string[] = [];
    expect(
      await startFromState(
        files,
        (l) => lines.push(l),
        async (f) => loadedNumber(f),
      ),
    ).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(files.exitDump);
    expect(existsSync(`${files.exitDump}.unreadable`)).toBe(true);
  });

  it("is dropped when older than the last save", async () => {
    const files = stateFiles(temp());
    exitDump(files, 2, 60);
    saveState(files, state(3));
    await adoptExitDump(files, () => {});
    expect(savedNumber(files.current)).toBe(3);
    expect(existsSync(files.exitDump)).toBe(false);
  });
});
