// The e2e projects' global setup: one stack template per run (see stack-template.ts) and the broker of the run's
// shared platform (shared-platform-broker.ts), both removed at the end. Both projects call it in the one main process.
import type { TestProject } from "vitest/node";
import { removeDataDir } from "../../scripts/infra/data-dir.ts";
import { removeStaleReservations } from "./port-reservations.ts";
import { startSharedPlatformBroker } from "./shared-platform-broker.ts";
import { freePort } from "./stack.ts";
import { prepareStackTemplate } from "./stack-template.ts";

async function prepare() {
  const started = Date.now();
  const template = await prepareStackTemplate({ postgres: await freePort(), anvil: await freePort() });
  // Test workers (and the shared platform) are started after this and inherit the environment.
  process.env.E2E_STACK_TEMPLATE = template;
  console.info(`e2e stack template ${template} ready in ${Date.now() - started} ms`);
  const broker = await startSharedPlatformBroker();
  return {
    brokerUrl: broker.url,
    async teardown() {
      await broker.stop();
      removeDataDir(template);
      removeStaleReservations();
    },
  };
}

export default async function setup(project: TestProject) {
  // vitest loads this module once per project: the first project's setup prepares, the other's finds it in the env.
  const made = process.env.E2E_SHARED_PLATFORM_URL;
  if (made) {
    project.provide("sharedPlatformUrl", made);
    return;
  }
  const { brokerUrl, teardown } = await prepare();
  process.env.E2E_SHARED_PLATFORM_URL = brokerUrl;
  project.provide("sharedPlatformUrl", brokerUrl);
  return teardown;
}
