// The explorer's own browser script and stylesheet, served next to Swagger UI's files.

/** Starts Swagger UI on the document named by the page's `data-spec-url`; API-key authorisation survives reloads. */
export const EXPLORER_SCRIPT = `"use strict";
(function startExplorer() {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.specUrl,
    domNode: root,
    deepLinking: true,
    // Tags start collapsed: the document has well over a hundred operations, rendered per tag when opened.
    docExpansion: "none",
    persistAuthorization: true,
    displayRequestDuration: true,
    // No online validator badge and no ?url= override: the explorer only ever shows this host's document.
    validatorUrl: null,
    queryConfigEnabled: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    // A write made with the session cookie must be JSON (host/http/same-origin.ts), a bodiless one too.
    requestInterceptor: function (request) {
      var method = (request.method || "GET").toUpperCase();
      var named = Object.keys(request.headers || {}).some(function (name) { return name.toLowerCase() === "content-type"; });
      if (method !== "GET" && method !== "HEAD" && !named) {
        request.headers = request.headers || {};
        request.headers["Content-Type"] = "application/json";
      }
      return request;
    },
  });
})();
`;

/** The version bar above Swagger UI; system fonts only, nothing fetched. */
export const EXPLORER_STYLESHEET = `body { margin: 0; }
.api-versions { display: flex; gap: 1.5rem; align-items: baseline; padding: 0.75rem 1.25rem;
  background: #1b1b1b; color: #fff; font-family: system-ui, sans-serif; }
.api-versions strong { font-size: 1.1rem; margin-right: auto; }
.api-versions a { color: #c5e4ff; }
.api-versions a[aria-current="page"] { color: #fff; font-weight: 600; text-decoration: none; }
`;
