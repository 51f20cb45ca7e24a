// The chain's hashes of some blocks (the recall check, host/events/recalls.ts); null for a height not mined (yet).
import { BlockNotFoundError, type PublicClient } from "viem";
import type { BlockHashes } from "../events/recalls.ts";

export const blockHashesOf =
  (client: PublicClient): BlockHashes =>
  async (numbers) =>
    new Map(
      await Promise.all(
        numbers.map(async (blockNumber): Promise<[bigint, string | null]> => {
          try {
            return [blockNumber, (await client.getBlock({ blockNumber })).hash];
          } catch (error) {
            if (error instanceof BlockNotFoundError) return [blockNumber, null];
            throw error;
          }
        }),
      ),
    );
