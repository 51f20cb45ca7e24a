// The explorer's HTML page for one API version: Swagger UI on that version's document, assets from this host only.
import { DOCUMENTED_API_VERSIONS, type DocumentedApiVersion } from "./api-versions.ts";
import { explorerAssetPath } from "./explorer-assets.ts";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

function versionLinks(current: DocumentedApiVersion) {
  return DOCUMENTED_API_VERSIONS.map((version) => {
    const currentPage = version.id === current.id ? ' aria-current="page"' : "";
    return `<a href="${escapeHtml(version.explorerPath)}"${currentPage}>${escapeHtml(version.id)}</a>`;
  }).join("\n      ");
}

export function renderExplorerPage(version: DocumentedApiVersion): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(version.title)} ${escapeHtml(version.version)}</title>
    <link rel="stylesheet" href="${explorerAssetPath("swagger-ui.css")}">
    <link rel="stylesheet" href="${explorerAssetPath("explorer.css")}">
    <link rel="icon" type="image/png" href="${explorerAssetPath("favicon-32x32.png")}" sizes="32x32">
    <link rel="icon" type="image/png" href="${explorerAssetPath("favicon-16x16.png")}" sizes="16x16">
  </head>
  <body>
    <nav class="api-versions">
      <strong>${escapeHtml(version.title)}</strong>
      ${versionLinks(version)}
      <a href="${escapeHtml(version.specPath)}">spec.json</a>
    </nav>
    <div id="swagger-ui" data-spec-url="${escapeHtml(version.specPath)}"></div>
    <script src="${explorerAssetPath("swagger-ui-bundle.js")}"></script>
    <script src="${explorerAssetPath("explorer.js")}"></script>
  </body>
</html>
`;
}
