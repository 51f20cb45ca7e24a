// Time-based one-time codes (RFC 6238) for the second factor.
import { Secret, TOTP } from "otpauth";

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secretBase32: string, label = "user"): TOTP {
  return new TOTP({
    issuer: "Asset Platform",
    label,
    algorithm: "SHA1",
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** Accepts the current code and the one either side of it (clock drift). */
export function verifyTotp(secretBase32: string, code: string): boolean {
  return /^\d{6}$/.test(code) && totp(secretBase32).validate({ token: code, window: 1 }) !== null;
}

export function currentTotp(secretBase32: string): string {
  return totp(secretBase32).generate();
}

export function totpUri(secretBase32: string, label: string): string {
  return totp(secretBase32, label).toString();
}
