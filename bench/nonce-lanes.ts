// Parallel nonce keys (ERC-4337: a nonce is a 192-bit key and a 64-bit sequence number): a sender's operations spread
// over several keys, so a bundler may hold and bundle one of each key at once without queueing behind the others.

/** The nonce of `sequence` under `key`. */
export const keyedNonce = (key: bigint, sequence: bigint): bigint => (key << 64n) | sequence;

/** `count` operations' nonces over `lanes` keys from `firstKey`: operation i on key firstKey + i % lanes, at the next
 * sequence number of that key; returned per key, in order. */
export function laneNonces(count: number, lanes: number, firstKey: bigint): bigint[][] {
  const nonces: bigint[][] = Array.from({ length: Math.min(count, lanes) }, () => []);
  for (let i = 0; i < count; i++) {
    const lane = nonces[i % lanes];
    lane.push(keyedNonce(firstKey + BigInt(i % lanes), BigInt(lane.length)));
  }
  return nonces;
}
