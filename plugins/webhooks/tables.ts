// The plugin's tables (migrations.ts) as Kysely types, and the platform db widened with them.
import type { ColumnType, Generated, Selectable } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";
import type { EndpointFilters } from "./filters.ts";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface WebhookEndpointsTable {
  id: string;
  organizationId: string;
  url: string;
  /** The subscribed event types (a JSON array of strings). */
  eventTypes: ColumnType<string[], string, string>;
  description: string | null;
  /** The resource filters (filters.ts), a JSON object. */
  filters: ColumnType<EndpointFilters, string | undefined, string>;
  /** `final` deliveries of types that ask for one wait for a counter-signed receipt. */
  receiptRequired: Generated<boolean>;
  disabled: Generated<boolean>;
  /** Why the platform disabled it (e.g. the receiver answered 410); null when a user did. */
  disabledReason: string | null;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: NullableTimestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** `awaiting-receipt`: delivered, but the endpoint wants a counter-signed receipt of the event, and none has come yet. */
export const DELIVERY_STATUSES = ["pending", "retrying", "awaiting-receipt", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface WebhookDeliveriesTable {
  id: string;
  endpointId: string;
  evtId: string;
  type: string;
  lifecycleState: string;
  /** Attempts made so far. */
  attempt: Generated<number>;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: NullableTimestamp;
  deliveredAt: NullableTimestamp;
  createdAt: Timestamp;
}

export interface WebhookFanOutQueueTable {
  evtId: string;
}

export interface WebhookReceiptsTable {
  endpointId: string;
  evtId: string;
  /** The receipt's own `webhook-id`. */
  receiptId: string;
  /** When the subscriber says it received the event. */
  receivedAt: Timestamp;
  recordedAt: Timestamp;
}

// A type alias, not an interface: withTables wants an index signature.
export type WebhookTables = {
  webhookEndpoints: WebhookEndpointsTable;
  webhookDeliveries: WebhookDeliveriesTable;
  webhookFanOutQueue: WebhookFanOutQueueTable;
  webhookReceipts: WebhookReceiptsTable;
};
export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export const webhooksDb = (db: PlatformDb) => db.withTables<WebhookTables>();
export type WebhooksDb = ReturnType<typeof webhooksDb>;
