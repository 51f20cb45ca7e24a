// How far the Ledger Index has got, from the indexer's own status endpoint.
export interface IndexStatus {
  url: string;
  /** The newest block the index has processed on a chain, or undefined when it is unreachable. */
  indexedBlock(chainId: number): Promise<number | undefined>;
  isReady(): Promise<boolean>;
  /** Waits until the index has processed `block` on `chainId`; false when `timeoutMs` passes first. */
  waitForBlock(chainId: number, block: bigint | number, timeoutMs: number): Promise<boolean>;
}

/** How often the waiters' one poll reads the status. */
const POLL_MS = 50;

interface Waiter {
  chainId: number;
  block: bigint;
  deadline: number;
  done: (reached: boolean) => void;
}

/**
 * Every waiter of a process shares one poll of the status (each /status is a query of the indexer's database): a
 * burst of `Prefer: wait` callers asked it once per caller every 100 ms while the index caught up.
 */
export function createIndexStatus(url: string): IndexStatus {
  /** Per chain id, its newest indexed block; undefined when the indexer did not answer. */
  async function readStatus(): Promise<Map<number, number> | undefined> {
    try {
      const res = await fetch(`${url}/status`, { signal: AbortSignal.timeout(2_000) });
      if (!res.ok) return undefined;
      const status = (await res.json()) as Record<string, { id: number; block: { number: number } }>;
      return new Map(Object.values(status).map((s) => [s.id, s.block.number]));
    } catch {
      return undefined;
    }
  }

  const waiters = new Set<Waiter>();
  let polling = false;
  async function pollWhileWaiting() {
    if (polling) return;
    polling = true;
    try {
      while (waiters.size > 0) {
        const status = await readStatus();
        const now = Date.now();
        for (const waiter of waiters) {
          const at = status?.get(waiter.chainId);
          const reached = at !== undefined && BigInt(at) >= waiter.block;
          if (reached || now >= waiter.deadline) {
            waiters.delete(waiter);
            waiter.done(reached);
          }
        }
        if (waiters.size > 0) await new Promise((r) => setTimeout(r, POLL_MS));
      }
    } finally {
      polling = false;
    }
  }

  return {
    url,
    indexedBlock: async (chainId) => (await readStatus())?.get(chainId),
    async isReady() {
      try {
        return (await fetch(`${url}/ready`, { signal: AbortSignal.timeout(2_000) })).ok;
      } catch {
        return false;
      }
    },
    waitForBlock(chainId, block, timeoutMs) {
      return new Promise((done) => {
        waiters.add({ chainId, block: BigInt(block), deadline: Date.now() + timeoutMs, done });
        void pollWhileWaiting();
      });
    },
  };
}
