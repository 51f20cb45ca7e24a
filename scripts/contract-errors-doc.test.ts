// The committed docs/contract-errors.md is the one the contract error table gives (else run npm run build:docs).
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { CONTRACT_ERRORS_DOC_PATH, contractErrorsDoc } from "./contract-errors-doc.ts";

it("docs/contract-errors.md is up to date (else run npm run build:docs)", () => {
  const doc = contractErrorsDoc();
  expect(readFileSync(CONTRACT_ERRORS_DOC_PATH, "utf8"), "docs/contract-errors.md is stale").toBe(doc);
  expect(doc).toContain("| `TOKEN_PAUSED` | `TokenPaused` | yes |");
});
