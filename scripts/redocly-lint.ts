// Lints an OpenAPI document with Redocly CLI's recommended rules, offline: no telemetry, no update check (both would
// reach the network), the document written to a temporary file and Redocly run from the installed package.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const REDOCLY_CLI = resolve(import.meta.dirname, "../node_modules/@redocly/cli/bin/cli.js");
const CONFIG = "extends:\n  - recommended\ntelemetry: off\n";

export interface RedoclyProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { pointer?: string }[];
}

/** Redocly's problems with the document under the recommended rules (errors and warnings). */
export async function redoclyLint(document: unknown): Promise<RedoclyProblem[]> {
  const dir = await mkdtemp(join(tmpdir(), "redocly-"));
  try {
    await writeFile(join(dir, "openapi.json"), JSON.stringify(document));
    await writeFile(join(dir, "redocly.yaml"), CONFIG);
    const run = promisify(execFile);
    const args = [REDOCLY_CLI, "lint", "openapi.json", "--config", "redocly.yaml", "--format", "json"];
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
    // Redocly exits 1 when it finds errors; its report is on stdout either way.
    const output = await run(process.execPath, args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 }).catch(
      (failure: { stdout?: string }) => {
        if (!failure.stdout) throw failure;
        return { stdout: failure.stdout };
      },
    );
    return (JSON.parse(output.stdout) as { problems: RedoclyProblem[] }).problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
