// Request bodies above their allowance are refused with 413 PAYLOAD_TOO_LARGE before they are read whole: the
// route's own upload allowance (host/http/upload-body.ts), else `defaultMaxBytes`. One limiter per size, made once.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv } from "./env.ts";
import { hasBody } from "./has-body.ts";
import { uploadAllowance } from "./upload-body.ts";

export function bodyLimits(defaultMaxBytes: number): MiddlewareHandler<AppEnv> {
  const limiters = new Map<number, ReturnType<typeof bodyLimit>>();
  const limitBody = (maxSize: number) => {
    let limiter = limiters.get(maxSize);
    if (!limiter) {
      const message = `The request body exceeds ${maxSize} bytes`;
      limiter = bodyLimit({
        maxSize,
        onError: () => {
          throw new ApiError("PAYLOAD_TOO_LARGE", { message, details: { maxBytes: maxSize } });
        },
      });
      limiters.set(maxSize, limiter);
    }
    return limiter;
  };
  return (c, next) => (hasBody(c) ? limitBody(uploadAllowance(c) ?? defaultMaxBytes)(c, next) : next());
}
