// Which paths skip API-key authentication: the documentation, and nothing else.
import { describe, expect, it } from "vitest";
import { isPublicDocPath } from "./public-paths.ts";

describe("isPublicDocPath", () => {
  it("opens the documents, the explorers, their assets and the /api redirect", () => {
    for (const path of [
      "/api",
      "/api/v2",
      "/api/v1",
      "/api/v2/spec.json",
      "/api/v1/spec.json",
      "/api/v2/explorer/swagger-ui.css",
      "/api/v2/explorer/swagger-ui-bundle.js",
      "/api/v2/explorer/explorer.js",
      "/api/v2/explorer/explorer.css",
      "/api/v2/explorer/favicon-32x32.png",
    ]) {
      expect(isPublicDocPath(path), path).toBe(true);
    }
  });

  it("keeps every other /api path behind authentication", () => {
    for (const path of [
      "/api/v2/tokens",
      "/api/v2/token-templates",
      "/api/v2/spec.json/../tokens",
      "/api/v2/spec.jsonx",
      "/api/v2/explorer/",
      "/api/v2/explorer/secret.js",
      "/api/v2/explorer/../tokens",
      "/api/v2/",
      "/api/v3/spec.json",
      "/api/token/0x5FbDB2315678afecb367f032d93F642f64180aa3/holders",
      "/API/V2/SPEC.JSON",
      "",
    ]) {
      expect(isPublicDocPath(path), path).toBe(false);
    }
  });
});
