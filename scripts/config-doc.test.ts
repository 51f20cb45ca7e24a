// The committed docs/configuration.md is the one host/config.ts's schema gives: a setting added, changed or
// described anew without `npm run build:docs` fails here.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { ConfigSchema } from "../host/config.ts";
import { CONFIG_DOC_PATH, configurationDoc } from "./config-doc.ts";

it("docs/configuration.md is up to date (else run npm run build:docs)", () => {
  expect(readFileSync(CONFIG_DOC_PATH, "utf8"), "docs/configuration.md is stale: run npm run build:docs").toBe(
    configurationDoc(),
  );
});

it("lists every setting with its default", () => {
  const doc = configurationDoc();
  for (const name of Object.keys(ConfigSchema.shape)) expect(doc).toContain(`| \`${name}\` |`);
  expect(doc).toContain("| `API_KEY_RATE_LIMIT` | `1200` | integer, at least 1 |");
  expect(doc).toContain("| `ANVIL_MINING` | `interval` under `npm start`, else `instant` | `instant`, `interval` |");
  expect(doc).toContain("| `ORG_FUNDING_WEI` | `100000000000000000000` | integer |");
});
