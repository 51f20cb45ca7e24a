// What abis/ ships is the build of contracts/ as they are. The build's hash covers every input of the compiler (our
// sources, the libraries' and solc's versions, the settings), so a matching hash is a current build without the
// 30-45 s of compiling again; `npm run build:contracts` compiles afresh and rewrites all of it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  abiCatalogueModule,
  abiIndexModule,
  abiModule,
  type BuildOutput,
  compileContracts,
  PUBLISHED_ABIS,
  SHIPPED_BUILD,
  shippedBuildText,
  sourceHash,
} from "./compile.ts";

const RUN = "run `npm run build:contracts` after a change to contracts/ or a compiler or library version";

describe("contract build", () => {
  const text = readFileSync(SHIPPED_BUILD, "utf8");
  const shipped = JSON.parse(text) as BuildOutput;

  it("abis/build.json is the build of contracts/ as they are", () => {
    expect(shipped.hash, `abis/build.json is stale: ${RUN}`).toBe(sourceHash());
    expect(text, "abis/build.json is not as build:contracts writes it").toBe(shippedBuildText(shipped));
  });

  it("abis/ holds the shipped build's ABIs", () => {
    for (const name of PUBLISHED_ABIS) {
      expect(shipped.contracts[name].bytecode.length).toBeGreaterThan(2);
      const committed = readFileSync(join(import.meta.dirname, "../../abis", `${name}.ts`), "utf8");
      expect(committed, `abis/${name}.ts is stale: ${RUN}`).toBe(abiModule(name, shipped.contracts[name].abi));
    }
    const index = readFileSync(join(import.meta.dirname, "../../abis/index.ts"), "utf8");
    expect(index, `abis/index.ts is stale: ${RUN}`).toBe(abiIndexModule());
    const catalogue = readFileSync(join(import.meta.dirname, "../../abis/catalogue.ts"), "utf8");
    expect(catalogue, `abis/catalogue.ts is stale: ${RUN}`).toBe(abiCatalogueModule());
  });

  it("serves the shipped build without compiling while the sources match it", () => {
    const started = performance.now();
    const build = compileContracts({ cacheDir: "/nonexistent/no-cache-here" });
    expect(build.hash).toBe(sourceHash());
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
