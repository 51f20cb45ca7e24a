// The error codes of sign-in and sessions, registered when the platform composes its plugins.
import type { DeclaredErrors, ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  SESSION_POLICY_DENIED: { id: "SVC-9190", status: 403, category: "auth", retryable: false, message: "The session policy does not allow this.", why: "This credential type may not perform the operation.", fix: "Sign in as a person to manage sessions." },
  SESSION_REVOCATION_NOT_AUTHORIZED: { id: "SVC-9191", status: 403, category: "permission", retryable: false, message: "You may not end this session.", why: "Only the session's owner or an organisation owner or admin may end it.", fix: "Ask the session's owner or an administrator." },
  USER_SECURITY_TARGET_NOT_FOUND: { id: "SVC-9192", status: 404, category: "client", retryable: false, message: "Session not found.", why: "No session with this id is visible to you.", fix: "List your sessions with GET /api/v2/sessions and use one of their ids." },
  INVALID_CREDENTIALS: { id: "SVC-9206", status: 401, category: "auth", retryable: false, message: "Email or password is wrong.", why: "No account matches these credentials.", fix: "Check the email and password." },
  TWO_FACTOR_CODE_INVALID: { id: "SVC-9207", status: 401, category: "auth", retryable: false, message: "The one-time code is wrong or expired.", why: "The TOTP code does not match the current time window.", fix: "Enter the current code from your authenticator." },
} as const satisfies Record<string, ErrorDefinition>;

declare module "../../host/errors/registry.ts" {
  interface ErrorCodes extends DeclaredErrors<typeof ERRORS> {} // so ErrorCode takes these codes
}
