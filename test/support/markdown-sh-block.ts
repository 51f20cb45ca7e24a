// Runs a marked sh block of a markdown file (README's walkthrough, docs' recipes) as written against a booted stack,
// so the documentation cannot drift from the API. The block runs from a folder whose ./.data is the stack's data
// folder (as from a clone while `npm start` is up), with a curl that fails on an HTTP error (a block shows an expected
// one with `|| true`) and ends each body with a newline: one JSON body a line.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestStack } from "./stack.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** The sh block that follows `marker` in the markdown file at `path` (from the repository's root). */
export function markedShBlock(path: string, marker: string): string {
  const text = readFileSync(join(ROOT, path), "utf8");
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${path} has no marker ${marker}`);
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(at));
  if (!block) throw new Error(`no sh block after ${path}'s marker`);
  return block[1];
}

// biome-ignore lint/suspicious/noExplicitAny: answers are asserted on field by field, as the e2e tests read json()
type JsonBody = any;

export interface ShRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout's non-empty lines, each parsed as JSON. */
  bodies(): JsonBody[];
}

/** A folder to run blocks from: ./.data is the stack's data folder, bin/curl the failing curl. */
export interface ShWorkDir {
  run(script: string): Promise<ShRun>;
  remove(): void;
}

export function shWorkDir(stack: TestStack, prefix: string): ShWorkDir {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  symlinkSync(stack.dataDir, join(dir, ".data"));
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const realCurl = execFileSync("bash", ["-c", "command -v curl"]).toString().trim();
  // The same curl, made to fail on an HTTP error (so `set -e` stops there) and to end each body with a newline.
  writeFileSync(join(bin, "curl"), `#!/bin/sh\nexec ${realCurl} --fail-with-body -w '\\n' "$@"\n`);
  chmodSync(join(bin, "curl"), 0o755);
  return {
    run: (script) => runBash(script, dir, `${bin}:${process.env.PATH}`),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function runBash(script: string, cwd: string, path: string): Promise<ShRun> {
  return new Promise((done) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], {
      cwd,
      env: { ...process.env, PATH: path },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 170_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({
        code,
        stdout,
        stderr,
        bodies: () =>
          stdout
            .split("\n")
            .filter((line) => line.trim() !== "")
            .map((line) => JSON.parse(line)),
      });
    });
  });
}
