// What a signed-in user must have done before a chain write (NOT_ONBOARDED names the first step missing). Sign-in
// itself enforces the second factor of a user who has one; a session write is signed by the organisation's wallets
// unless the body selects another, so a PIN (walletVerification) is the one step a write needs of the user.

export interface OnboardingStep {
  step: "pincode";
  fix: string;
}

const PINCODE: OnboardingStep = {
  step: "pincode",
  fix:
    "Set a six-digit PIN code for your account (an operator: npm run cli -- user set-pincode --user USER_ID " +
    "--pincode 123456): a chain write made with a session is confirmed with it in walletVerification.",
};

export function missingOnboardingStep(user: { pincodeHash: string | null }): OnboardingStep | undefined {
  if (!user.pincodeHash) return PINCODE;
  return undefined;
}
