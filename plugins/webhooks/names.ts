// The plugin's task names as other code enqueues them (`<plugin id>:<name>`), and the drain's payload.
import { z } from "zod";

export const PLUGIN_ID = "webhooks";
export const FAN_OUT_TASK = `${PLUGIN_ID}:fan-out`;
export const DELIVER_TASK = `${PLUGIN_ID}:deliver`;

/** The drain's payload (enqueue.ts builds it in SQL). A job of the per-delivery design before it names no endpoint. */
export const DeliverPayload = z.object({ endpointId: z.string().optional() });
