import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { abiIndexModule, abiModule, compileContracts, PUBLISHED_ABIS } from "./compile.ts";

describe("contract build", () => {
  it("compiles contracts/ and abis/ matches the build (run `npm run build:contracts` after a change)", () => {
    const build = compileContracts();
    for (const name of PUBLISHED_ABIS) {
      expect(build.contracts[name].bytecode.length).toBeGreaterThan(2);
      const committed = readFileSync(join(import.meta.dirname, "../../abis", `${name}.ts`), "utf8");
      expect(committed, `abis/${name}.ts is stale`).toBe(abiModule(name, build.contracts[name].abi));
    }
    const index = readFileSync(join(import.meta.dirname, "../../abis/index.ts"), "utf8");
    expect(index, "abis/index.ts is stale").toBe(abiIndexModule());
  }, 180_000); // a cold solc-js build of every contract takes 20-30 s on 2 cores
});
