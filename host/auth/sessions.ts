// Sessions for people: an opaque cookie token (only its digest is stored), a public id, and a stage
// (pending-2fa until the second factor is verified, then active).
import { createHash, randomBytes } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import type { PlatformDb } from "../db/database.ts";

export const SESSION_COOKIE = "svc_session";
export const TWO_FACTOR_COOKIE = "svc_2fa";
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const TWO_FACTOR_TTL_MS = 10 * 60 * 1000;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

export interface SessionRow {
  id: string;
  userId: string;
  organizationId: string | null;
  stage: "pending-2fa" | "active";
  expiresAt: Date;
}

export async function createSession(
  db: PlatformDb,
  input: {
    userId: string;
    organizationId: string | null;
    stage: SessionRow["stage"];
    ipAddress?: string;
    userAgent?: string;
  },
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const id = uuidv7();
  const expiresAt = new Date(Date.now() + (input.stage === "active" ? SESSION_TTL_MS : TWO_FACTOR_TTL_MS));
  await db
    .insertInto("sessions")
    .values({
      id,
      tokenHash: digest(token),
      userId: input.userId,
      organizationId: input.organizationId,
      stage: input.stage,
      ipAddress: input.ipAddress ?? null,
      userAgent: input.userAgent?.slice(0, 512) ?? null,
      expiresAt,
    })
    .execute();
  return { id, token, expiresAt };
}

/** The live session behind a cookie token, or undefined (unknown, expired, revoked). Throws if the store fails. */
export async function resolveSession(db: PlatformDb, token: string): Promise<SessionRow | undefined> {
  const row = await db
    .selectFrom("sessions")
    .select(["id", "userId", "organizationId", "stage", "expiresAt"])
    .where("tokenHash", "=", digest(token))
    .where("revokedAt", "is", null)
    .where("expiresAt", ">", new Date())
    .executeTakeFirst();
  return row;
}

export async function revokeSession(db: PlatformDb, id: string): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ revokedAt: new Date() })
    .where("id", "=", id)
    .where("revokedAt", "is", null)
    .execute();
}

/** Makes `organizationId` the session's active organisation (its caller must be a member of it). */
export async function setActiveOrganization(db: PlatformDb, sessionId: string, organizationId: string): Promise<void> {
  await db.updateTable("sessions").set({ organizationId }).where("id", "=", sessionId).execute();
}
