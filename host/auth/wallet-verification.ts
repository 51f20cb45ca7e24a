// walletVerification on chain writes: required (and checked against the user's PIN) for session callers only.
import type { Context } from "hono";
import type { PlatformDb } from "../db/database.ts";
import { ApiError } from "../errors/api-error.ts";
import type { AppEnv } from "../http/env.ts";
import { missingOnboardingStep } from "./onboarding.ts";
import { verifySecret } from "./passwords.ts";

export interface WalletVerification {
  verificationType: "PINCODE";
  secretVerificationCode: string;
}

export async function verifyWalletForWrite(
  c: Context<AppEnv>,
  db: PlatformDb,
  verification: WalletVerification | undefined,
) {
  const principal = c.get("principal");
  if (principal.kind === "api-key") return;
  await verifyPincode(db, principal.userId, verification);
}

/** The user's own PIN code, whatever their credential (a custodian's approval asks it of API keys too). */
export async function verifyPincode(db: PlatformDb, userId: string, verification: WalletVerification | undefined) {
  const user = await db.selectFrom("users").select("pincodeHash").where("id", "=", userId).executeTakeFirstOrThrow();
  // Before the body's check: a user who never set a PIN cannot send a walletVerification at all.
  const missing = missingOnboardingStep(user);
  if (missing) throw new ApiError("NOT_ONBOARDED", { fix: missing.fix, details: { missingStep: missing.step } });
  if (!verification) throw new ApiError("WALLET_VERIFICATION_REQUIRED");
  if (!(await verifySecret(verification.secretVerificationCode, user.pincodeHash)))
    throw new ApiError("WALLET_VERIFICATION_FAILED");
}
