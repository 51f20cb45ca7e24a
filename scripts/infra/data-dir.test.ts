import { lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { prepareDataDir } from "./data-dir.ts";

const mode = (path: string) => lstatSync(path).mode & 0o777;
const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "data-dir-"));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the data folder", () => {
  it("is narrowed to 0700 with private logs, PID files and secrets, also when made wide by an earlier start", () => {
    const dataDir = join(temp(), "data");
    mkdirSync(join(dataDir, "logs"), { recursive: true, mode: 0o755 });
    mkdirSync(join(dataDir, "run"), { mode: 0o777 });
    writeFileSync(join(dataDir, "logs", "anvil.log"), "mnemonic", { mode: 0o644 });
    writeFileSync(join(dataDir, "run", "anvil.pid"), "{}", { mode: 0o644 });
    writeFileSync(join(dataDir, "custody-master.key"), "00", { mode: 0o644 });
    prepareDataDir(dataDir);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, "logs"))).toBe(0o700);
    expect(mode(join(dataDir, "run"))).toBe(0o700);
    expect(mode(join(dataDir, "logs", "anvil.log"))).toBe(0o600);
    expect(mode(join(dataDir, "run", "anvil.pid"))).toBe(0o600);
    expect(mode(join(dataDir, "custody-master.key"))).toBe(0o600);
  });

  it("that cannot be made is one clear line naming DATA_DIR", () => {
    const file = join(temp(), "file");
    writeFileSync(file, "");
    expect(() => prepareDataDir(join(file, "data"))).toThrow(/^DATA_DIR .* is not usable \([^\n]*\); set DATA_DIR/);
  });
});
