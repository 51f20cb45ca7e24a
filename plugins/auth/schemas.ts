import { z } from "@hono/zod-openapi";

export const SignInBodySchema = z
  .object({
    email: z.string().email().max(320),
    password: z.string().min(1).max(1024),
    organizationId: z.string().min(1).max(64).optional(),
  })
  .strict()
  .openapi("SignInRequest");

export const TwoFactorBodySchema = z
  .object({ code: z.string().regex(/^\d{6}$/, "a 6-digit code") })
  .strict()
  .openapi("TwoFactorRequest");

export const SignInResultSchema = z
  .object({
    status: z.enum(["SIGNED_IN", "TWO_FACTOR_REQUIRED"]),
    sessionId: z.string().optional(),
    userId: z.string().optional(),
    organizationId: z.string().nullable().optional(),
    expiresAt: z.string().optional(),
  })
  .openapi("SignInResult");

export const CurrentSessionSchema = z
  .object({
    kind: z.enum(["api-key", "session"]),
    userId: z.string(),
    organizationId: z.string(),
    roles: z.array(z.string()),
    scope: z.enum(["read", "read-write"]),
    sessionId: z.string().nullable(),
  })
  .openapi("CurrentSession");

export const SessionRevokeResultSchema = z.object({ success: z.boolean() }).openapi("SessionRevokeResult");
