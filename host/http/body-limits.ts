// Request bodies above their allowance are refused with 413 PAYLOAD_TOO_LARGE before they are read whole: the
// route's own upload allowance (host/http/upload-body.ts), else `defaultMaxBytes`; a chunked body by hono's limiter
// (one per size, made once) as it is read.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv } from "./env.ts";
import { hasBody } from "./has-body.ts";
import { uploadAllowance } from "./upload-body.ts";

export function bodyLimits(defaultMaxBytes: number): MiddlewareHandler<AppEnv> {
  const tooLarge = (maxSize: number) =>
    new ApiError("PAYLOAD_TOO_LARGE", {
      message: `The request body exceeds ${maxSize} bytes`,
      details: { maxBytes: maxSize },
    });
  const limiters = new Map<number, ReturnType<typeof bodyLimit>>();
  const limitBody = (maxSize: number) => {
    let limiter = limiters.get(maxSize);
    if (!limiter) {
      limiter = bodyLimit({
        maxSize,
        onError: () => {
          throw tooLarge(maxSize);
        },
      });
      limiters.set(maxSize, limiter);
    }
    return limiter;
  };
  return (c, next) => {
    if (!hasBody(c)) return next();
    const maxSize = uploadAllowance(c) ?? defaultMaxBytes;
    // A declared length is judged from the header (the node server holds the body to it). Hono's limiter would ask
    // for the fetch Request's stream first, which the node server then builds instead of reading the socket directly.
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined) {
      if (Number.parseInt(length, 10) > maxSize) throw tooLarge(maxSize);
      return next();
    }
    return limitBody(maxSize)(c, next);
  };
}
