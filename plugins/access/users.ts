// People (the CLI, the first-start bootstrap and tests): a user with optional password, PIN and TOTP secret.
import { v7 as uuidv7 } from "uuid";
import { hashSecret } from "../../host/auth/passwords.ts";
import { newTotpSecret, totpUri } from "../../host/auth/totp.ts";
import { seal } from "../../host/crypto/sealed.ts";
import type { PlatformDb } from "../../host/db/database.ts";

export async function createUser(
  db: PlatformDb,
  masterKey: Buffer,
  input: { email: string; displayName: string; password?: string; pincode?: string; totp?: boolean },
): Promise<{ userId: string; totpSecret?: string; totpUri?: string }> {
  const userId = uuidv7();
  const email = input.email.toLowerCase();
  const totpSecret = input.totp ? newTotpSecret() : undefined;
  await db
    .insertInto("users")
    .values({
      id: userId,
      email,
      displayName: input.displayName,
      passwordHash: input.password ? await hashSecret(input.password) : null,
      pincodeHash: input.pincode ? await hashSecret(input.pincode) : null,
      totpSecret: totpSecret ? seal(Buffer.from(totpSecret, "utf8"), masterKey) : null,
    })
    .execute();
  return { userId, ...(totpSecret ? { totpSecret, totpUri: totpUri(totpSecret, email) } : {}) };
}

/** Sets (or replaces) a user's PIN, the one onboarding step a session's chain writes need (NOT_ONBOARDED). */
export async function setUserPincode(db: PlatformDb, input: { userId: string; pincode: string }) {
  const updated = await db
    .updateTable("users")
    .set({ pincodeHash: await hashSecret(input.pincode) })
    .where("id", "=", input.userId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw new Error(`No user ${input.userId}`);
  return { userId: input.userId, pincodeSet: true };
}
