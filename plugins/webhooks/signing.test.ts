import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newSecret, ROTATION_OVERLAP_MS, sealSecret, signedHeaders, signingSecrets } from "./signing.ts";
import type { EndpointRow } from "./tables.ts";

const masterKey = randomBytes(32);
const endpoint = (current: string, previous?: string, expiresAt?: Date) =>
  ({
    secretSealed: sealSecret(current, masterKey),
    previousSecretSealed: previous ? sealSecret(previous, masterKey) : null,
    previousSecretExpiresAt: expiresAt ?? null,
  }) as EndpointRow;

describe("webhook signing", () => {
  it("makes whsec_ secrets, sealed at rest", () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(sealSecret(secret, masterKey)).not.toContain(secret.slice(6));
    expect(signingSecrets(endpoint(secret), masterKey)).toEqual([secret]);
  });

  it("signs with the previous secret too until its overlap ends; standardwebhooks verifies either", () => {
    const [current, previous] = [newSecret(), newSecret()];
    const now = new Date();
    const rotated = endpoint(current, previous, new Date(now.getTime() + ROTATION_OVERLAP_MS));
    const secrets = signingSecrets(rotated, masterKey, now);
    expect(secrets).toEqual([current, previous]);
    const body = JSON.stringify({ evt_id: "evt_1" });
    const headers = signedHeaders(secrets, "evt_1", body, now);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual({ evt_id: "evt_1" });
    expect(new Webhook(previous).verify(body, headers)).toEqual({ evt_id: "evt_1" });
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    const later = new Date(now.getTime() + ROTATION_OVERLAP_MS + 1000);
    expect(signingSecrets(rotated, masterKey, later)).toEqual([current]);
  });
});
