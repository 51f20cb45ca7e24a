// A 429 in the envelope with Retry-After (and data.retryAfterSeconds), for every throttle of the host.
import { ApiError } from "../errors/api-error.ts";
import type { ErrorCode } from "../errors/registry.ts";

export function throttled(code: ErrorCode, retryAfterSeconds: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ApiError(code, {
    headers: { "Retry-After": String(seconds) },
    details: { retryAfterSeconds: seconds },
  });
}
