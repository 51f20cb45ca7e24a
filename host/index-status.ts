// How far the Ledger Index has got, from the indexer's own status endpoint.
export interface IndexStatus {
  url: string;
  /** The newest block the index has processed on a chain, or undefined when it is unreachable. */
  indexedBlock(chainId: number): Promise<number | undefined>;
  isReady(): Promise<boolean>;
  /** Waits until the index has processed `block` on `chainId`; false when `timeoutMs` passes first. */
  waitForBlock(chainId: number, block: bigint | number, timeoutMs: number): Promise<boolean>;
}

export function createIndexStatus(url: string): IndexStatus {
  async function indexedBlock(chainId: number) {
    try {
      const res = await fetch(`${url}/status`, { signal: AbortSignal.timeout(2_000) });
      if (!res.ok) return undefined;
      const status = (await res.json()) as Record<string, { id: number; block: { number: number } }>;
      return Object.values(status).find((s) => s.id === chainId)?.block.number;
    } catch {
      return undefined;
    }
  }
  return {
    url,
    indexedBlock,
    async isReady() {
      try {
        return (await fetch(`${url}/ready`, { signal: AbortSignal.timeout(2_000) })).ok;
      } catch {
        return false;
      }
    },
    async waitForBlock(chainId, block, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const at = await indexedBlock(chainId);
        if (at !== undefined && BigInt(at) >= BigInt(block)) return true;
        if (Date.now() >= deadline) return false;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
