import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  abiIndexModule,
  abiModule,
  compileContracts,
  PUBLISHED_ABIS,
  SHIPPED_BUILD,
  shippedBuildText,
  sourceHash,
} from "./compile.ts";

describe("contract build", () => {
  it("compiles contracts/ to what abis/ ships (run `npm run build:contracts` after a change)", () => {
    const build = compileContracts({ fresh: true });
    expect(readFileSync(SHIPPED_BUILD, "utf8"), "abis/build.json is stale").toBe(shippedBuildText(build));
    for (const name of PUBLISHED_ABIS) {
      expect(build.contracts[name].bytecode.length).toBeGreaterThan(2);
      const committed = readFileSync(join(import.meta.dirname, "../../abis", `${name}.ts`), "utf8");
      expect(committed, `abis/${name}.ts is stale`).toBe(abiModule(name, build.contracts[name].abi));
    }
    const index = readFileSync(join(import.meta.dirname, "../../abis/index.ts"), "utf8");
    expect(index, "abis/index.ts is stale").toBe(abiIndexModule());
  }, 180_000); // a cold solc-js build of every contract takes 20-45 s on 2 cores

  it("serves the shipped build without compiling while the sources match it", () => {
    const started = performance.now();
    const build = compileContracts({ cacheDir: "/nonexistent/no-cache-here" });
    expect(build.hash).toBe(sourceHash());
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
