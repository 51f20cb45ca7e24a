// README's set-up as CI would do it: `git clone` this checkout's HEAD into a fresh mode-700 folder, `npm ci` there
// (under CI, which has just installed this checkout from its lock file: the lock checked, the packages copied), and
// boot the platform on its default .data (test/support/boot-check.ts). As root, the server must run as the
// postgres user from the relocated binaries, and no mode of the clone's folders may be widened; then the same as a
// throwaway ordinary user (home 0700), whose server runs from the clone's node_modules with the cluster in place.
// About 1.5-2 minutes (an install and two starts); twice that on a machine busy with other work, hence the timeouts.
// A restart on the same data is test/slice.test.ts's (the same code, without an install before it).
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeDataDir } from "../scripts/infra/data-dir.ts";
import { SYSTEM_BASE } from "../scripts/infra/postgres-home.ts";

const REPO = resolve(import.meta.dirname, "..");
const isRoot = process.getuid?.() === 0;
// The child's environment: this process's, without the test runner's own.
const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "NODE_OPTIONS" && k !== "DATA_DIR"),
);

interface BootReport {
  readyz: number;
  templates: number;
  /** `npm start` to the first /readyz 200, and the token creation sent that moment. */
  firstReadyMs: number;
  firstTokenCreate: number;
  postgresUid: number;
  postgresBinary: string;
  cluster: string;
  clusterIsLink: boolean;
  modes: Record<string, number>;
}

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  return execFileSync(command, args, { ...options, env: options.env ?? baseEnv, stdio: "pipe" }).toString();
}

/** The mode of every folder under `root` (node_modules included), by relative path. */
function folderModes(root: string): Map<string, number> {
  const modes = new Map<string, number>();
  const walk = (dir: string) => {
    modes.set(dir.slice(root.length) || "/", lstatSync(dir).mode & 0o7777);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
    }
  };
  walk(root);
  return modes;
}

/** Folders whose mode gained any bit. */
function widened(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...before].filter(([path, mode]) => (after.get(path) ?? mode) & ~mode).map(([path]) => path);
}

function bootReport(output: string): BootReport {
  const line = output.split("\n").find((l) => l.startsWith("BOOT-CHECK "));
  if (!line) throw new Error(`boot-check printed no report:\n${output}`);
  return JSON.parse(line.slice("BOOT-CHECK ".length));
}

function expectPrivateData(report: BootReport) {
  for (const [path, mode] of Object.entries(report.modes)) {
    const folder = path === "." || path === "logs" || path === "run";
    expect({ path, mode: mode.toString(8) }).toEqual({ path, mode: folder ? "700" : "600" });
  }
  expect(Object.keys(report.modes)).toContain("logs/anvil.log");
}

describe("a fresh clone installs and starts", () => {
  const cleanups: (() => void)[] = [];
  /** The first test's installed packages, which the second moves into its clone (one copy less to make and delete). */
  let installed: string | undefined;
  afterAll(() => {
    for (const cleanup of cleanups.reverse()) {
      try {
        cleanup();
      } catch (error) {
        console.warn(`cleanup failed: ${error}`);
      }
    }
  });

  it(`as ${isRoot ? "root" : "this user"}, in a mode-700 folder`, { timeout: 420_000 }, () => {
    const parent = mkdtempSync(join(tmpdir(), "fresh-clone-"));
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
    const clone = join(parent, "clone");
    cleanups.push(() => removeDataDir(join(clone, ".data")));
    expect(lstatSync(parent).mode & 0o777).toBe(0o700);
    run("git", ["clone", "--quiet", REPO, clone]);
    if (process.env.CI) {
      // CI has just run `npm ci` on this very clone (.ci/run): the lock file is checked again here (the step that
      // refuses a lock out of step with package.json, in 3 s) and the packages it installed copied, not built again.
      run("npm", ["ci", "--dry-run", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: clone });
      run("cp", ["-a", join(REPO, "node_modules"), join(clone, "node_modules")]);
    } else {
      run("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: clone });
    }
    installed = join(clone, "node_modules");
    const before = folderModes(parent);

    const report = bootReport(
      run(join(clone, "node_modules", ".bin", "tsx"), ["test/support/boot-check.ts"], { cwd: clone }),
    );

    expect([report.readyz, report.templates]).toEqual([200, 200]);
    // "Ready" means usable: a write sent the moment /readyz first answers 200 is accepted.
    expect(report.firstTokenCreate).toBe(202);
    console.log(`npm start to ready: ${report.firstReadyMs} ms`);
    expectPrivateData(report);
    expect(widened(before, folderModes(parent))).toEqual([]);
    if (isRoot) {
      expect(report.postgresUid).toBe(Number(run("id", ["-u", "postgres"]).trim()));
      expect(report.postgresBinary.startsWith(`${SYSTEM_BASE}/postgres-`)).toBe(true);
      expect(report.clusterIsLink).toBe(true);
      expect(report.cluster.startsWith(`${SYSTEM_BASE}/clusters/`)).toBe(true);
    } else {
      expect(report.postgresUid).toBe(process.getuid?.());
      expect(report.cluster).toBe(join(clone, ".data", "postgres"));
    }
    // Removing the data removes its relocated cluster too.
    removeDataDir(join(clone, ".data"));
    expect(existsSync(report.cluster)).toBe(false);
  });

  it.skipIf(!isRoot)("as an ordinary user, in their mode-700 home", { timeout: 240_000 }, (context) => {
    const user = `apfc${process.pid}`;
    try {
      run("useradd", ["--create-home", "--shell", "/bin/sh", user]);
    } catch (error) {
      context.skip(`cannot create a throwaway user (${String(error).split("\n")[0]})`);
    }
    cleanups.push(() => run("userdel", ["--remove", user]));
    const home = run("sh", ["-c", `getent passwd ${user} | cut -d: -f6`]).trim();
    chmodSync(home, 0o700);
    const uid = Number(run("id", ["-u", user]).trim());
    const clone = join(home, "clone");
    // root's clone handed to the user (they cannot read this checkout's folders), with the packages the first test
    // installed from the same lock file (else a copy of this checkout's).
    run("git", ["clone", "--quiet", REPO, clone]);
    if (installed && existsSync(installed)) run("mv", ["-T", installed, join(clone, "node_modules")]);
    else run("cp", ["-a", `${join(REPO, "node_modules")}/.`, join(clone, "node_modules")]);
    run("chown", ["-R", `${user}:`, home]);
    const asUser = (command: string, args: string[]) =>
      run("runuser", ["-u", user, "--", command, ...args], {
        cwd: clone,
        env: { ...baseEnv, HOME: home, USER: user },
      });
    const before = folderModes(home);

    const report = bootReport(asUser(join(clone, "node_modules", ".bin", "tsx"), ["test/support/boot-check.ts"]));

    expect([report.readyz, report.templates]).toEqual([200, 200]);
    expect(report.firstTokenCreate).toBe(202);
    expectPrivateData(report);
    expect(widened(before, folderModes(home))).toEqual([]);
    expect(report.postgresUid).toBe(uid);
    expect(report.postgresBinary.startsWith(join(clone, "node_modules"))).toBe(true);
    expect([report.clusterIsLink, report.cluster]).toEqual([false, join(clone, ".data", "postgres")]);
  });
});
