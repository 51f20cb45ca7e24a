// The documentation paths anyone may read without an API key: the documents, the explorers and their assets.
import { DOCUMENTED_API_VERSIONS } from "./api-versions.ts";
import { EXPLORER_ASSET_NAMES, explorerAssetPath } from "./explorer-assets.ts";

/** Bare /api redirects to the current version's explorer. */
export const API_ROOT_PATH = "/api";

const PUBLIC_DOC_PATHS = new Set<string>([
  API_ROOT_PATH,
  ...DOCUMENTED_API_VERSIONS.flatMap((version) => [version.specPath, version.explorerPath]),
  ...EXPLORER_ASSET_NAMES.map(explorerAssetPath),
]);

export function isPublicDocPath(path: string): boolean {
  return PUBLIC_DOC_PATHS.has(path);
}
