// `npm run build:contracts`: compile contracts/ and regenerate abis/ (the ABI modules and the shipped build).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  abiCatalogueModule,
  abiIndexModule,
  abiModule,
  compileContracts,
  PUBLISHED_ABIS,
  SHIPPED_BUILD,
  shippedBuildText,
} from "./contracts/compile.ts";

const started = Date.now();
const build = compileContracts({ fresh: true });
for (const name of PUBLISHED_ABIS) {
  writeFileSync(join(import.meta.dirname, "..", "abis", `${name}.ts`), abiModule(name, build.contracts[name].abi));
}
writeFileSync(join(import.meta.dirname, "..", "abis", "index.ts"), abiIndexModule());
writeFileSync(join(import.meta.dirname, "..", "abis", "catalogue.ts"), abiCatalogueModule());
writeFileSync(SHIPPED_BUILD, shippedBuildText(build));
console.log(`contracts ${build.hash} compiled with solc ${build.solcVersion} in ${Date.now() - started} ms`);
