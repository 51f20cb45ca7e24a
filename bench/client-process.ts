// A benchmark's load client in a Node process of its own (so its work does not share the measured host's event
// loop); resolves with its standard output.
import { spawn } from "node:child_process";
import { join } from "node:path";

export function runClientProcess(file: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, file)], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${file} exited with ${code}`))));
  });
}
