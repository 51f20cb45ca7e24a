// The committed docs/configuration.md is the one the core's and the plugins' settings schemas give: a setting added,
// changed or described anew without `npm run build:docs` fails here.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { CONFIG_DOC_PATH, configurationDoc, settingsByOwner } from "./config-doc.ts";

it("docs/configuration.md is up to date (else run npm run build:docs)", () => {
  expect(readFileSync(CONFIG_DOC_PATH, "utf8"), "docs/configuration.md is stale: run npm run build:docs").toBe(
    configurationDoc(),
  );
});

it("lists every setting, the core's and each plugin's, with its owner and default", () => {
  const doc = configurationDoc();
  const owners = settingsByOwner();
  for (const [owner, settings] of owners)
    for (const name of Object.keys(settings.shape)) expect(doc).toContain(`| \`${name}\` | ${owner} |`);
  expect(owners.map(([owner]) => owner)).toEqual(
    expect.arrayContaining(["core", "bundler", "exchange-rates", "monitoring", "smart-wallets", "webhooks"]),
  );
  expect(doc).toContain("| `API_KEY_RATE_LIMIT` | core | `1200` | integer, at least 1 |");
  expect(doc).toContain(
    "| `ANVIL_MINING` | core | `interval` under `npm start`, else `instant` | `instant`, `interval` |",
  );
  expect(doc).toContain("| `ORG_FUNDING_WEI` | core | `100000000000000000000` | integer |");
  expect(doc).toContain("| `BUNDLER_MAX_BATCH_SIZE` | bundler | `20` | integer, 1 to 1000 |");
  expect(doc).toContain("| `PAYMASTER_DEPOSIT_WEI` | smart-wallets | `1000000000000000000` | integer |");
});
