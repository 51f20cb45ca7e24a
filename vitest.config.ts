import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "domain/**/*.test.ts",
            "host/**/*.test.ts",
            "plugins/**/*.test.ts",
            "scripts/**/*.test.ts",
            "sdk/src/**/*.test.ts",
          ],
          testTimeout: 30_000,
          setupFiles: ["./test/support/unit-setup.ts"],
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/**/*.test.ts"],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // One migrated database cluster and deployed chain per run, copied into each stack's data dir.
          globalSetup: ["./test/support/e2e-global-setup.ts"],
          // Each file boots its own stack (PostgreSQL, anvil, indexer); one at a time on 2 cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
