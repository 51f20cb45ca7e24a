// The value patterns of webhook event payloads (spec: Events → Delivery envelope): addresses, hashes, chain ids
// and block positions, each with its exact type and pattern, shared by every plugin that declares an event.
import { z } from "zod";

const MAX_SAFE = 9007199254740991;

export const EventAddress = z.string().regex(/^0x[a-fA-F0-9]{40}$/);
export const EventHash = z.string().regex(/^0x[a-fA-F0-9]{64}$/);
export const EventChainId = z.number().int().min(1).max(MAX_SAFE);
/** A block number or log index as a JSON integer. */
export const EventPosition = z.number().int().min(0).max(MAX_SAFE);
/** A raw integer (token units, a block number) as a decimal string. */
export const EventIntegerString = z.string().regex(/^[0-9]+$/);
