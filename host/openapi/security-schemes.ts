// The security schemes both API documents declare, and the requirement that applies them to every operation.
import { SESSION_COOKIE } from "../auth/sessions.ts";
import type { App } from "../http/env.ts";

export const API_KEY_SCHEME = "ApiKey";
export const SESSION_COOKIE_SCHEME = "SessionCookie";

/** Either scheme authenticates a request (OpenAPI: alternatives are separate requirement objects). */
export const API_SECURITY: Record<string, string[]>[] = [{ [API_KEY_SCHEME]: [] }, { [SESSION_COOKIE_SCHEME]: [] }];

export function registerSecuritySchemes(registry: App["openAPIRegistry"]) {
  registry.registerComponent("securitySchemes", API_KEY_SCHEME, {
    type: "apiKey",
    in: "header",
    name: "X-Api-Key",
    description: "An organisation API key (`svc_...`).",
  });
  registry.registerComponent("securitySchemes", SESSION_COOKIE_SCHEME, {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description: "A person's session cookie, set by POST /api/v2/auth/sign-in (and /api/v2/auth/two-factor).",
  });
}
