// Endpoint secrets (`whsec_` + base64, sealed at rest under the master key) and Standard Webhooks signatures, made
// with the standardwebhooks package: one `v1,…` signature per secret in force, space-separated.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { seal, unseal } from "../../host/crypto/sealed.ts";
import type { EndpointRow } from "./tables.ts";

/** How long the secret a rotation replaced keeps signing alongside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export const sealSecret = (secret: string, masterKey: Buffer) => seal(Buffer.from(secret, "utf8"), masterKey);
const unsealSecret = (sealed: string, masterKey: Buffer) => Buffer.from(unseal(sealed, masterKey)).toString("utf8");

/** The secrets that sign a delivery now: the current one, and the previous one within its overlap. */
export function signingSecrets(endpoint: EndpointRow, masterKey: Buffer, now = new Date()): string[] {
  const secrets = [unsealSecret(endpoint.secretSealed, masterKey)];
  const previousUntil = endpoint.previousSecretExpiresAt ? new Date(endpoint.previousSecretExpiresAt) : null;
  if (endpoint.previousSecretSealed && previousUntil && previousUntil > now)
    secrets.push(unsealSecret(endpoint.previousSecretSealed, masterKey));
  return secrets;
}

/** The Standard Webhooks headers of one attempt. */
export function signedHeaders(secrets: string[], evtId: string, body: string, at: Date): Record<string, string> {
  return {
    "webhook-id": evtId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(evtId, at, body)).join(" "),
  };
}
