// The access routes' shapes: API keys (the secret only in the create answer) and members with their roles.
import { z } from "@hono/zod-openapi";
import { ROLES } from "../../host/auth/permissions.ts";
import { IsoTimestampSchema, linksSelf } from "../../host/http/schemas.ts";

const timestamp = z.string().openapi({ format: "date-time" });

export const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().openapi({ description: "The key's first characters, to recognise it", example: "svc_Ab12Cd" }),
    scope: z.enum(["read", "read-write"]),
    organizationId: z.string(),
    userId: z.string().openapi({ description: "The member whose roles the key carries" }),
    createdAt: timestamp,
    expiresAt: timestamp.nullable(),
    lastUsedAt: timestamp.nullable().openapi({ description: "Kept to the minute" }),
    revokedAt: timestamp.nullable(),
  })
  .openapi("ApiKey");

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().openapi({ description: "The secret, shown this once: send it as X-Api-Key" }),
}).openapi("CreatedApiKey");

export const CreateApiKeyBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    scope: z.enum(["read", "read-write"]),
    expiresAt: IsoTimestampSchema.optional().openapi({
      description: "Omit for a key valid until revoked; a key with an expiry may only create keys expiring no later",
    }),
  })
  .strict()
  .openapi("CreateApiKeyRequest");

export const ApiKeyIdParams = z.object({ id: z.string().min(1).max(64) });

export const MemberSchema = z
  .object({
    userId: z.string(),
    email: z.string(),
    displayName: z.string(),
    roles: z.array(z.enum(ROLES)),
    joinedAt: timestamp.openapi({ description: "When the member was first granted a role" }),
    wallet: z.string().nullable().openapi({ description: "The member's custody wallet in the organisation" }),
  })
  .openapi("OrganizationMember");

export const SetRolesBodySchema = z
  .object({ roles: z.array(z.enum(ROLES)).min(1).max(ROLES.length) })
  .strict()
  .openapi("SetMemberRolesRequest");

export const MemberParams = z.object({ userId: z.string().min(1).max(64) });

export const envelope = <T extends z.ZodTypeAny>(schema: T) => z.object({ data: schema, links: linksSelf });
