// The committed generated types are those the current v2 OpenAPI document gives: a route, schema or event type
// changed without `npm run build:sdk` fails here.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { generateSdkApiSource, SDK_API_SOURCE_PATH } from "../../scripts/sdk-api-source.ts";

it("sdk/src/generated/api.ts is up to date (else run npm run build:sdk)", async () => {
  const committed = readFileSync(SDK_API_SOURCE_PATH, "utf8");
  const fresh = await generateSdkApiSource();
  // Compared whole, without a diff: one of a 14,000-line file would flood the report.
  expect(fresh === committed, "sdk/src/generated/api.ts is stale: run npm run build:sdk").toBe(true);
});
