// npm run build:sdk: regenerates sdk/src/generated/api.ts from the v2 OpenAPI document (built in this process, no
// running platform needed), then compiles the SDK to sdk/dist with its own tsconfig.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { generateSdkApiSource, SDK_API_SOURCE_PATH } from "./sdk-api-source.ts";

const source = await generateSdkApiSource();
mkdirSync(dirname(SDK_API_SOURCE_PATH), { recursive: true });
writeFileSync(SDK_API_SOURCE_PATH, source);
console.log(`generated ${SDK_API_SOURCE_PATH}`);

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", resolve(import.meta.dirname, "../sdk/tsconfig.json")], { stdio: "inherit" });
console.log("compiled sdk/dist");
