// A bundler error for the JSON-RPC answer: the ApiError of one of the plugin's codes, with a reason in its message.
import { ApiError } from "../../host/errors/api-error.ts";
import type { BundlerErrorCode } from "./errors.ts";

export function rpcError(
  code: BundlerErrorCode,
  message: string,
  details: Record<string, unknown> = {},
  cause?: unknown,
): ApiError {
  return new ApiError(code, { message, details, cause });
}
