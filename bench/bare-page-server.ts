// The bare page (bench/bare-page.ts) as a process of its own: the measured host and its yardstick then share no heap,
// so neither's allocation pattern (V8 pretenures by allocation site, across a process) skews the other's GC. Prints
// the page's URL on its first line and serves until its standard input closes.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { startBarePage } from "./bare-page.ts";

/** Starts the bare page in a child process; resolves with its URL once it listens. */
export function startBarePageProcess(databaseUrl: string, organizationId: string, chainId: number, limit: number) {
  const child = spawn(process.execPath, ["--import", "tsx", import.meta.filename], {
    env: { ...process.env, BARE_PAGE: JSON.stringify({ databaseUrl, organizationId, chainId, limit }) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise<{ url: string; close: () => Promise<void> }>((resolve, reject) => {
    child.once("error", reject);
    void exited.then(() => reject(new Error("the bare page process exited before it listened")));
    createInterface({ input: child.stdout! }).once("line", (url) =>
      resolve({
        url,
        close: async () => {
          child.stdin!.end();
          await exited;
        },
      }),
    );
  });
}

if (process.env.BARE_PAGE && process.argv[1] === import.meta.filename) {
  const { databaseUrl, organizationId, chainId, limit } = JSON.parse(process.env.BARE_PAGE);
  const page = await startBarePage(databaseUrl, organizationId, chainId, limit);
  process.stdout.write(`${page.url}\n`);
  process.stdin.resume();
  process.stdin.once("end", () => void page.close().then(() => process.exit(0)));
}
