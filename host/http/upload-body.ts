// Routes that take a file: the host's body limit is sized for JSON, so a route declares the larger multipart body it
// accepts with `acceptsUpload(maxBytes)` among its middleware. The host reads it from the matched route before any
// byte is read (app.ts applies that limit instead of its own; same-origin.ts lets a session send it as
// multipart/form-data), so no other route's body grows.
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";

type UploadMarker = MiddlewareHandler & { uploadMaxBytes: number };

/** A route's middleware that does nothing itself: it carries the body size the route accepts as an upload. */
export function acceptsUpload(maxBytes: number): UploadMarker {
  const marker: MiddlewareHandler = (_c, next) => next();
  return Object.assign(marker, { uploadMaxBytes: maxBytes });
}

/** The upload body size the request's route accepts (the largest if several match), or undefined for none. */
export function uploadAllowance(c: Context): number | undefined {
  let allowance: number | undefined;
  for (const route of matchedRoutes(c)) {
    const bytes = (route.handler as Partial<UploadMarker>).uploadMaxBytes;
    if (typeof bytes === "number") allowance = Math.max(allowance ?? 0, bytes);
  }
  return allowance;
}
