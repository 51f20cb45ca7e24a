// The e2e projects' global setup: one stack template per run (see stack-template.ts), removed at the end.
import { removeDataDir } from "../../scripts/infra/data-dir.ts";
import { freePort } from "./stack.ts";
import { prepareStackTemplate } from "./stack-template.ts";

export default async function setup() {
  if (process.env.E2E_STACK_TEMPLATE) return; // the other e2e project's setup (same process) made it
  const started = Date.now();
  const template = await prepareStackTemplate({ postgres: await freePort(), anvil: await freePort() });
  // Test workers are started after this and inherit the environment.
  process.env.E2E_STACK_TEMPLATE = template;
  console.info(`e2e stack template ${template} ready in ${Date.now() - started} ms`);
  return () => removeDataDir(template);
}
