// The explorer's static files: Swagger UI from the swagger-ui-dist package plus its own script, served by the host.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { App } from "../http/env.ts";
import { EXPLORER_SCRIPT, EXPLORER_STYLESHEET } from "./explorer-client.ts";
import { type PrecompressedBody, precompress, sendPrecompressed } from "./precompressed.ts";

export const EXPLORER_ASSET_BASE = "/api/v2/explorer/";

/** Unversioned URLs: browsers revalidate after a day (ETag), so a package upgrade shows up within one. */
const ASSET_CACHE_CONTROL = "public, max-age=86400";

const swaggerUiDist = () => dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const fromSwaggerUi = (file: string) => () => readFileSync(join(swaggerUiDist(), file));

interface ExplorerAsset {
  contentType: string;
  load: () => string | Uint8Array;
  compress: boolean;
}

const ASSETS: Record<string, ExplorerAsset> = {
  "swagger-ui.css": { contentType: "text/css; charset=utf-8", load: fromSwaggerUi("swagger-ui.css"), compress: true },
  "swagger-ui-bundle.js": {
    contentType: "text/javascript; charset=utf-8",
    load: fromSwaggerUi("swagger-ui-bundle.js"),
    compress: true,
  },
  "favicon-32x32.png": { contentType: "image/png", load: fromSwaggerUi("favicon-32x32.png"), compress: false },
  "favicon-16x16.png": { contentType: "image/png", load: fromSwaggerUi("favicon-16x16.png"), compress: false },
  "explorer.js": { contentType: "text/javascript; charset=utf-8", load: () => EXPLORER_SCRIPT, compress: true },
  "explorer.css": { contentType: "text/css; charset=utf-8", load: () => EXPLORER_STYLESHEET, compress: true },
};

export const EXPLORER_ASSET_NAMES: readonly string[] = Object.keys(ASSETS);

export const explorerAssetPath = (name: keyof typeof ASSETS & string) => `${EXPLORER_ASSET_BASE}${name}`;

/** Serves each asset from memory, read and compressed on its first request. */
export function mountExplorerAssets(app: App) {
  const loaded = new Map<string, PrecompressedBody>();
  app.get(`${EXPLORER_ASSET_BASE}:asset`, (c) => {
    const name = c.req.param("asset");
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) return c.notFound();
    let body = loaded.get(name);
    if (!body) {
      body = precompress(asset.load(), { contentType: asset.contentType, compress: asset.compress, brotliQuality: 9 });
      loaded.set(name, body);
    }
    return sendPrecompressed(c, body, ASSET_CACHE_CONTROL);
  });
}
