// The chain's own clock: the latest block's time (unix seconds). Contracts compare dates with it, and tests and anvil
// move it, so a route deciding "has it started / ended / passed the cutoff" reads this, not the host's clock.
import type { PublicClient } from "viem";

export async function chainNow(client: PublicClient): Promise<bigint> {
  return (await client.getBlock({ blockTag: "latest" })).timestamp;
}
