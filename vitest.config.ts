import { configDefaults, defineConfig } from "vitest/config";

/**
 * End-to-end files that run alone (after the others): their waits are timed (fee bumps, receipt timeouts, crash
 * points, request timeouts, reorg depths, cron minutes, a fuzzer's hang limit), they compare timings, or they load
 * the machine themselves (npm ci, Chromium, thousands of requests).
 */
const E2E_ALONE = [
  "test/crash.test.ts",
  "test/fresh-clone.test.ts",
  "test/fuzz.test.ts",
  "test/hardening.test.ts",
  "test/index-reorg.property.test.ts",
  "test/openapi.test.ts",
  "test/pipeline.test.ts",
  "test/self-healing.test.ts",
  "test/slice.test.ts",
  "test/webhook-lifecycle.test.ts",
];

/**
 * Alone too, and the only files that load the example plugin (PLUGIN_MODULES, which the platform's modules read once
 * per process): they share a process of their own, after the others.
 */
const E2E_ALONE_EXAMPLE_PLUGIN = ["test/example-plugin.test.ts", "test/webhooks.test.ts"];

/**
 * Unit files that need a process of their own: a PKCS#11 module reads its configuration (SOFTHSM2_CONF, each file's
 * own token) once per process.
 */
const UNIT_ALONE = ["host/custody/pkcs11/*.test.ts"];

const unit = {
  testTimeout: 30_000,
  setupFiles: ["./test/support/unit-setup.ts"],
};

const e2e = {
  testTimeout: 180_000,
  hookTimeout: 180_000,
  // One migrated database cluster and deployed chain per run, copied into each stack's data dir.
  globalSetup: ["./test/support/e2e-global-setup.ts"],
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "bench/**/*.test.ts",
            "domain/**/*.test.ts",
            "host/**/*.test.ts",
            "plugins/**/*.test.ts",
            "scripts/**/*.test.ts",
            "sdk/src/**/*.test.ts",
          ],
          exclude: [...configDefaults.exclude, ...UNIT_ALONE],
          ...unit,
          // The files share their worker's process: the plugins' modules are imported once a worker, not once a file
          // (the project took 145 s isolated, 44 s shared, on 2 cores).
          isolate: false,
        },
      },
      { test: { name: "unit-alone", include: UNIT_ALONE, ...unit } },
      {
        test: {
          ...e2e,
          name: "e2e",
          // The files share one process: the platform's modules are imported once, not once a file (~2 s each).
          isolate: false,
          include: ["test/**/*.test.ts"],
          exclude: [...E2E_ALONE, ...E2E_ALONE_EXAMPLE_PLUGIN],
          // Two files at once by default: each boots its own stack on its own ports and data dir, and much of a
          // file's time is waiting on its chain and indexer (on 2 cores the project took 328 s against 604-700 s one
          // at a time; the whole suite 775 s against 1,116-1,578 s). E2E_WORKERS=1 runs them one at a time.
          maxWorkers: Number(process.env.E2E_WORKERS ?? 2),
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...e2e,
          name: "e2e-alone",
          include: E2E_ALONE,
          // One file at a time, all in one process as in the e2e project (the platform's modules imported once).
          isolate: false,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          ...e2e,
          name: "e2e-alone-example-plugin",
          include: E2E_ALONE_EXAMPLE_PLUGIN,
          isolate: false,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
