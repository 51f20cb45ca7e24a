// The error codes of sign-in and sessions, registered when the platform composes its plugins.
import { def, type ErrorDefinition } from "../../host/errors/registry.ts";

// One code a line: id, status, category, retryable, message, why, fix.
// biome-ignore format: the registry reads best as a table
export const ERRORS = {
  NOT_ONBOARDED: def("SVC-0010", 403, "permission", false, "Onboarding is incomplete.", "The user has not finished onboarding.", "Complete onboarding, then retry."),
  SESSION_POLICY_DENIED: def("SVC-9190", 403, "auth", false, "The session policy does not allow this.", "This credential type may not perform the operation.", "Sign in as a person to manage sessions."),
  SESSION_REVOCATION_NOT_AUTHORIZED: def("SVC-9191", 403, "permission", false, "You may not end this session.", "Only the session's owner or an organisation owner or admin may end it.", "Ask the session's owner or an administrator."),
  USER_SECURITY_TARGET_NOT_FOUND: def("SVC-9192", 404, "client", false, "Session not found.", "No session with this id is visible to you.", "List your sessions with GET /api/v2/sessions and use one of their ids."),
  INVALID_CREDENTIALS: def("SVC-9206", 401, "auth", false, "Email or password is wrong.", "No account matches these credentials.", "Check the email and password."),
  TWO_FACTOR_CODE_INVALID: def("SVC-9207", 401, "auth", false, "The one-time code is wrong or expired.", "The TOTP code does not match the current time window.", "Enter the current code from your authenticator."),
} as const satisfies Record<string, ErrorDefinition>;
