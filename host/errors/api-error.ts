// The one error type routes throw; the error middleware renders it in the spec's envelope.
import { type ErrorCode, type ErrorDefinition, errorDefinition } from "./registry.ts";

export interface ApiErrorOptions {
  /** Overrides the registry's generic message with one about this request. */
  message?: string;
  /** Route fields (Form A `data.*`, Form B `error.details`), e.g. chainId, chainStatus, issues. */
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Overrides the registry's generic fix with the step this caller must take (e.g. NOT_ONBOARDED's missing step). */
  fix?: string;
  /** One of the code's `alsoStatuses` (CONTRACT_ERROR answers 403, 404, 409 or 422 depending on the refusal). */
  status?: number;
  /** What failed underneath (kept on the error for the code that catches it; never rendered). */
  cause?: unknown;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;
  readonly status: number;
  readonly fix: string;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    const def: ErrorDefinition = errorDefinition(code); // an unregistered code throws here, naming it
    super(options.message ?? def.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ApiError";
    this.code = code;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
    if (options.status !== undefined && options.status !== def.status && !def.alsoStatuses?.includes(options.status)) {
      throw new Error(`${code} is never answered with status ${options.status}`);
    }
    this.status = options.status ?? def.status;
    this.fix = options.fix ?? def.fix;
  }

  get definition(): ErrorDefinition {
    return errorDefinition(this.code);
  }
}

/** A validation failure that names the field, e.g. `modules.0.typeId`. */
export function badRequest(message: string, issues: { path: string; message: string }[] = []): ApiError {
  return new ApiError("BAD_REQUEST", { message, details: issues.length ? { issues } : {} });
}
