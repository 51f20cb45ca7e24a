// The asset platform's typed client: REST calls typed by the generated `paths` of GET /api/v2/spec.json
// (openapi-fetch), the webhook deliveries' types generated from the event schemas (`Webhook.*`), verifyWebhook for
// Standard Webhooks deliveries and signReceipt for counter-signed receipts.
import createClient, { type Client } from "openapi-fetch";
import { Webhook as StandardWebhook, WebhookVerificationError } from "standardwebhooks";
import type { paths, Webhook } from "./generated/api.js";

export type { components, operations, paths, Webhook, webhooks } from "./generated/api.js";
export { WebhookVerificationError };

export interface ApiClientOptions {
  /** The platform's origin, e.g. `https://platform.example` (paths start with `/api/v2`). */
  baseUrl: string;
  /** An API key (`svc_…`), sent as `X-Api-Key`. */
  apiKey: string;
}

/** An openapi-fetch client of /api/v2: `client.GET("/api/v2/tokens", { params: { query: {...} } })`, all typed. */
export function createApiClient({ baseUrl, apiKey }: ApiClientOptions): Client<paths> {
  return createClient<paths>({ baseUrl, headers: { "X-Api-Key": apiKey } });
}

/** Request headers as a Fetch `Headers` or Node's `IncomingHttpHeaders`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const SIGNED_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

function signedHeaders(headers: WebhookHeaders): Record<string, string> {
  const read = (name: string): string | undefined => {
    if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
    const record = headers as Record<string, string | string[] | undefined>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    const value = key === undefined ? undefined : record[key];
    // A repeated header: its values joined as one list of signatures.
    return Array.isArray(value) ? value.join(" ") : value;
  };
  return Object.fromEntries(SIGNED_HEADERS.map((name) => [name, read(name) ?? ""]));
}

/**
 * Verifies a delivery with the endpoint's secret (`whsec_…`) as Standard Webhooks says: a `v1` signature of
 * `id.timestamp.body` (any of the space-separated ones, during a rotation), a timestamp at most five minutes from now,
 * and the body's `evt_id` equal to `webhook-id`. Pass the body exactly as received. Returns the envelope; throws
 * WebhookVerificationError otherwise.
 */
export function verifyWebhook(secret: string, body: string | Uint8Array, headers: WebhookHeaders): Webhook.Event {
  const signed = signedHeaders(headers);
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  const event = new StandardWebhook(secret).verify(text, signed) as Webhook.Event | null;
  if (typeof event !== "object" || event === null || event.evt_id !== signed["webhook-id"]) {
    throw new WebhookVerificationError("The body's evt_id is not the webhook-id header");
  }
  return event;
}

/** Where receipts are POSTed (relative to the platform's origin). */
export const RECEIPTS_PATH = "/api/v2/webhooks/receipts" satisfies keyof paths;

export interface Receipt {
  /** The event's `evt_id`. */
  evtId: string;
  /** When the subscriber received it. */
  receivedAt: Date | string;
}

/**
 * A counter-signed receipt for POST /api/v2/webhooks/receipts, signed with the endpoint's secret in Standard Webhooks
 * headers: send `body` as is (the signature covers its exact bytes) with `headers`.
 */
export function signReceipt(secret: string, receipt: Receipt): { body: string; headers: Record<string, string> } {
  const receivedAt = receipt.receivedAt instanceof Date ? receipt.receivedAt.toISOString() : receipt.receivedAt;
  const body = JSON.stringify({ evtId: receipt.evtId, receivedAt });
  const id = `rcpt_${globalThis.crypto.randomUUID()}`;
  const at = new Date();
  return {
    body,
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new StandardWebhook(secret).sign(id, at, body),
    },
  };
}
