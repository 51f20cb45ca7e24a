// Issue #33's figures: `npm start` to the first /readyz 200 from a fresh clone of HEAD (after `npm ci`, as a newcomer
// runs it: embedded defaults, nothing compiled or deployed yet), then a second start on the same data; each time a
// token creation sent the moment /readyz first answers 200 must be accepted. Targets: 30 s and 15 s on 2 cores.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { removeDataDir } from "../scripts/infra/data-dir.ts";
import { runNpmStart } from "../test/support/npm-start.ts";
import { freePort } from "../test/support/stack.ts";

const REPO = resolve(import.meta.dirname, "..");
const TARGETS = { cold: 30_000, second: 15_000 };

/** The phases `npm start` printed (`[12.3s] index: …`), as "index 9.4 s" steps. */
function phases(output: string): string {
  let previous = 0;
  const steps: string[] = [];
  for (const match of output.matchAll(/^\[(\d+\.\d)s\] ([a-z]+):/gm)) {
    const at = Number(match[1]);
    steps.push(`${match[2]} ${(at - previous).toFixed(1)}`);
    previous = at;
  }
  return steps.join(", ");
}

export async function benchStartToReady(): Promise<void> {
  const parent = mkdtempSync(join(tmpdir(), "bench-start-"));
  const clone = join(parent, "clone");
  try {
    execFileSync("git", ["clone", "--quiet", REPO, clone]);
    const installStarted = performance.now();
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: clone, stdio: "pipe" });
    const installMs = performance.now() - installStarted;
    const port = await freePort();
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "DATA_DIR" && !k.startsWith("VITEST"))),
      PORT: String(port),
      ANVIL_PORT: String(await freePort()),
      PONDER_PORT: String(await freePort()),
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      LOG_LEVEL: "warn",
    };
    console.log("start to ready (issue #33): `npm start` in a fresh clone, embedded defaults (1 s blocks)");
    console.log(`  npm ci: ${(installMs / 1000).toFixed(1)} s (not counted)`);
    for (const [name, target] of Object.entries(TARGETS)) {
      const run = await runNpmStart({ cwd: clone, env, port });
      await run.stop();
      const seconds = (run.readyMs / 1000).toFixed(1);
      const verdict = run.readyMs <= target ? "met" : "MISSED";
      console.log(
        `  ${name} start: ${seconds} s to /readyz 200 (target ${target / 1000} s, ${verdict}); ` +
          `POST /api/v2/tokens then: ${run.tokenCreate.status}`,
      );
      console.log(`    phases (s): ${phases(run.output())}`);
    }
  } finally {
    removeDataDir(join(clone, ".data"));
    rmSync(parent, { recursive: true, force: true });
  }
}
