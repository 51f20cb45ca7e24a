// The body of a completed sign-in, by password alone or after the second factor.
export interface SignedInSession {
  id: string;
  expiresAt: Date;
}

export function signedIn(session: SignedInSession, userId: string, organizationId: string | null) {
  return {
    status: "SIGNED_IN" as const,
    sessionId: session.id,
    userId,
    organizationId,
    expiresAt: session.expiresAt.toISOString(),
  };
}
