// verifyWebhook against deliveries signed by the standardwebhooks package itself (as the platform signs them), and
// signReceipt against its verify (as the platform checks receipts).
import { Webhook as StandardWebhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signReceipt, verifyWebhook, WebhookVerificationError } from "./index.ts";
import { sampleTransfer } from "./sample-delivery.ts";

const secret = `whsec_${Buffer.from("a secret of the endpoint, 32 b!!").toString("base64")}`;
const previous = `whsec_${Buffer.from("the secret a rotation replaced!!").toString("base64")}`;
const stranger = `whsec_${Buffer.from("a secret of some other endpoint!").toString("base64")}`;

const delivery = sampleTransfer;

/** The headers of a delivery signed at `at` with each of `secrets`, space-separated as during a rotation. */
function signed(body: string, secrets: string[], at = new Date(), id = delivery.evt_id) {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((s) => new StandardWebhook(s).sign(id, at, body)).join(" "),
  };
}

describe("verifyWebhook", () => {
  const body = JSON.stringify(delivery);

  it("accepts a delivery signed with standardwebhooks' sign and returns the envelope", () => {
    expect(verifyWebhook(secret, body, signed(body, [secret]))).toEqual(delivery);
  });

  it("takes the body as bytes and the headers as a Fetch Headers", () => {
    const headers = new Headers(signed(body, [secret]));
    expect(verifyWebhook(secret, new TextEncoder().encode(body), headers).evt_id).toBe(delivery.evt_id);
  });

  it("refuses a tampered body", () => {
    const headers = signed(body, [secret]);
    const tampered = body.replace('"150050"', '"950050"');
    expect(() => verifyWebhook(secret, tampered, headers)).toThrow(WebhookVerificationError);
  });

  it("refuses a timestamp older than five minutes, accepts one just inside", () => {
    const old = new Date(Date.now() - 5 * 60_000 - 10_000);
    expect(() => verifyWebhook(secret, body, signed(body, [secret], old))).toThrow(/timestamp/i);
    const recent = new Date(Date.now() - 4 * 60_000);
    expect(verifyWebhook(secret, body, signed(body, [secret], recent)).evt_id).toBe(delivery.evt_id);
  });

  it("accepts a two-signature header during a rotation, with either secret", () => {
    const headers = signed(body, [secret, previous]);
    expect(verifyWebhook(secret, body, headers).evt_id).toBe(delivery.evt_id);
    expect(verifyWebhook(previous, body, headers).evt_id).toBe(delivery.evt_id);
    expect(() => verifyWebhook(stranger, body, headers)).toThrow(WebhookVerificationError);
  });

  it("refuses missing headers and a webhook-id that is not the body's evt_id", () => {
    expect(() => verifyWebhook(secret, body, {})).toThrow(WebhookVerificationError);
    const other = signed(body, [secret], new Date(), "evt_another");
    expect(() => verifyWebhook(secret, body, other)).toThrow(/evt_id/);
  });
});

describe("signReceipt", () => {
  it("signs {evtId, receivedAt} as the receipts route verifies it, with the endpoint's secret", () => {
    const receivedAt = new Date("2026-11-26T10:00:00.000Z");
    const { body, headers } = signReceipt(secret, { evtId: delivery.evt_id, receivedAt });
    expect(JSON.parse(body)).toEqual({ evtId: delivery.evt_id, receivedAt: "2026-11-26T10:00:00.000Z" });
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["webhook-id"]).not.toBe(delivery.evt_id);
    expect(new StandardWebhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new StandardWebhook(stranger).verify(body, headers)).toThrow();
  });
});
