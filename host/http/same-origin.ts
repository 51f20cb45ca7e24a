// Cross-site request forgery beyond SameSite=Lax (which still lets a sibling subdomain or another port of the same
// site send the session cookie): a write authenticated by the session cookie must come from a page of this origin
// (its Origin header: the request's own scheme, host and port, PUBLIC_BASE_URL's, or one of TRUSTED_ORIGINS) and carry
// JSON (Content-Type: application/json, which a cross-site form or no-cors fetch cannot send without a CORS
// preflight, and this API answers none; a route that takes a file accepts multipart/form-data on the Origin check alone,
// which every browser's cross-site POST fails). API-key requests carry no ambient credential and are not checked; the public
// sign-in routes, which set the cookie, get the Origin check whenever a browser sent one.
import type { Context } from "hono";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv } from "./env.ts";
import { isJsonContentType } from "./json-content-type.ts";
import { uploadAllowance } from "./upload-body.ts";

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const isMultipart = (type: string | undefined) => type?.split(";")[0]?.trim().toLowerCase() === "multipart/form-data";

/** `https://app.example.com:8443/x` → `https://app.example.com:8443`; not a web origin → undefined. */
export function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The origin the caller addressed: the request URL's, or behind TRUST_PROXY reverse proxies, the scheme and host the
 * outermost one was asked for (X-Forwarded-Proto, X-Forwarded-Host), which a browser page cannot set on a cross-site
 * request without a preflight.
 */
export function requestOrigin(c: Context, trustedProxies: number): string {
  const url = new URL(c.req.url);
  if (trustedProxies > 0) {
    const first = (name: string) => c.req.header(name)?.split(",")[0]?.trim() || undefined;
    const proto = first("x-forwarded-proto") ?? url.protocol.slice(0, -1);
    const host = first("x-forwarded-host") ?? url.host;
    return originOf(`${proto}://${host}`) ?? url.origin;
  }
  return url.origin;
}

/** Why an Origin header is refused for a request addressed to `own`, or null when it is this site's. */
export function originProblem(origin: string | undefined, own: string, trusted: ReadonlySet<string>): string | null {
  if (origin === undefined || origin === "")
    return "A request authenticated by the session cookie must carry an Origin header (browsers send it on writes)";
  const normalised = originOf(origin);
  if (normalised === undefined) return `The Origin ${JSON.stringify(origin.slice(0, 200))} is not a web origin`;
  if (normalised === own || trusted.has(normalised)) return null;
  return `The Origin ${normalised} is not this API's origin (${own}) nor one of TRUSTED_ORIGINS`;
}

export interface SameOriginSettings {
  /** TRUSTED_ORIGINS, comma-separated origins. */
  TRUSTED_ORIGINS?: string | undefined;
  PUBLIC_BASE_URL?: string | undefined;
  TRUST_PROXY: number;
}

/** The origins trusted besides the request's own: PUBLIC_BASE_URL's and TRUSTED_ORIGINS. */
export function trustedOrigins(settings: SameOriginSettings): Set<string> {
  const listed = (settings.TRUSTED_ORIGINS ?? "").split(",").map((entry) => entry.trim());
  const origins = [...listed, settings.PUBLIC_BASE_URL ?? ""].map(originOf);
  return new Set(origins.filter((origin): origin is string => origin !== undefined));
}

export interface SameOriginGuard {
  /** A write the session cookie authenticated: same origin and JSON (or a form, to a route taking a file), else 403. */
  sessionWrite(c: Context<AppEnv>): void;
  /** A public route that sets the cookie (sign-in): a browser's Origin, when sent, must be this site's. */
  publicWrite(c: Context<AppEnv>): void;
}

export function sameOriginGuard(settings: SameOriginSettings): SameOriginGuard {
  const trusted = trustedOrigins(settings);
  const checkOrigin = (c: Context<AppEnv>, origin: string | undefined) => {
    const problem = originProblem(origin, requestOrigin(c, settings.TRUST_PROXY), trusted);
    if (problem)
      throw new ApiError("CROSS_SITE_REQUEST_REFUSED", { message: problem, details: { origin: origin ?? null } });
  };
  // A procedure's REST request (host/rpc/transport.ts) was checked as the /api/rpc request that made it.
  const exempt = (c: Context<AppEnv>) => READ_METHODS.has(c.req.method) || c.env?.rpcInner === true;
  return {
    sessionWrite(c) {
      if (exempt(c) || c.get("principal")?.kind !== "session") return;
      checkOrigin(c, c.req.header("origin"));
      const type = c.req.header("content-type");
      // A route that takes a file (upload-body.ts) takes it as a form; the Origin check above still applies.
      if (isMultipart(type) && uploadAllowance(c) !== undefined) return;
      if (!isJsonContentType(type))
        throw new ApiError("SESSION_WRITE_JSON_REQUIRED", {
          message: `A write authenticated by the session cookie must send Content-Type: application/json (it sent ${type ? JSON.stringify(type.slice(0, 100)) : "none"}), even without a body`,
        });
    },
    publicWrite(c) {
      const origin = c.req.header("origin");
      if (exempt(c) || origin === undefined) return;
      checkOrigin(c, origin);
    },
  };
}
