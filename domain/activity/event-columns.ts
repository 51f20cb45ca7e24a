// How activity_event keeps an event's involved addresses and decoded parameters: as flat text, not an array and a
// json column. Ponder deep-copies (structuredClone) every row that holds an array or an object at each write, where a
// flat row is spread: 3.7 µs against 0.04 µs a row, on the indexer's busiest table. The indexer encodes
// (src/activity.ts), readers decode here (or in SQL where a filter needs the array: plugins/tokens/events-collection.ts).

export interface ActivityValue {
  name: string;
  value: string;
}

/** Lowercase addresses, space-separated ("" for none): PostgreSQL's string_to_array(involved, ' ') reads it back. */
export const INVOLVED_SEPARATOR = " ";

export function encodeInvolved(addresses: readonly string[]): string {
  return addresses.map((address) => address.toLowerCase()).join(INVOLVED_SEPARATOR);
}

export function decodeInvolved(encoded: string): `0x${string}`[] {
  return encoded === "" ? [] : (encoded.split(INVOLVED_SEPARATOR) as `0x${string}`[]);
}

/** The event's parameters by name, each as a string (bigints as decimal raw units), as JSON text. */
export function encodeValues(values: Record<string, unknown>): string {
  return JSON.stringify(Object.entries(values).map(([name, value]) => ({ name, value: String(value) })));
}

export function decodeValues(encoded: string): ActivityValue[] {
  return JSON.parse(encoded) as ActivityValue[];
}
