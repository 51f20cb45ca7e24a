// The chaos suite's audit against the chain itself (its own RPC, never the fault proxy): each write's amount counted
// among the token's mints (Transfer logs from the zero address) and in totalSupply, each completed write's hash with a
// receipt, and every holder's indexed balance (GET /api/v2/tokens/{address}/holders) next to balanceOf.
import { type Address, createPublicClient, http, zeroAddress } from "viem";
import { TokenAbi } from "../../abis/Token.ts";
import type { Credentials } from "./platform-process.ts";
import { RECIPIENTS, type Write } from "./writers.ts";

export interface ChainAudit {
  /** Mints beyond one per write (a write done twice), and mints of no write at all. */
  duplicated: number;
  /** Accepted writes with no mint on chain. */
  lost: number;
  /** Writes answered COMPLETED whose transaction hash has no receipt. */
  staleHashes: number;
  /** totalSupply minus the sum of the amounts minted once per write. */
  supplyDifference: bigint;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function chainClient(rpcUrl: string) {
  return createPublicClient({ transport: http(rpcUrl, { retryCount: 5, timeout: 20_000 }) });
}

export async function auditChain(rpcUrl: string, token: Address, writes: Write[]): Promise<ChainAudit> {
  const client = chainClient(rpcUrl);
  const mints = await client.getContractEvents({
    address: token,
    abi: TokenAbi,
    eventName: "Transfer",
    args: { from: zeroAddress },
    fromBlock: 0n,
    toBlock: "latest",
  });
  const times = new Map<bigint, number>();
  for (const log of mints) {
    const value = (log.args as { value: bigint }).value;
    times.set(value, (times.get(value) ?? 0) + 1);
  }
  const amounts = new Set(writes.map((w) => w.amount));
  let duplicated = 0;
  for (const [value, n] of times) duplicated += amounts.has(value) ? n - 1 : n;
  const lost = writes.filter((w) => w.accepted && !times.has(w.amount)).length;
  let staleHashes = 0;
  for (const write of writes.filter((w) => w.status === "COMPLETED")) {
    const receipt = await client.getTransactionReceipt({ hash: write.txHash as `0x${string}` }).catch(() => undefined);
    if (receipt?.status !== "success") staleHashes += 1;
  }
  const supply = (await client.readContract({ address: token, abi: TokenAbi, functionName: "totalSupply" })) as bigint;
  const once = [...times.keys()].filter((value) => amounts.has(value)).reduce((sum, value) => sum + value, 0n);
  return { duplicated, lost, staleHashes, supplyDifference: supply - once };
}

/** Holders whose indexed balance differs from balanceOf once the index had `timeoutMs` to catch up; and their views. */
export async function indexMismatches(
  credentials: Credentials,
  rpcUrl: string,
  token: Address,
  timeoutMs = 90_000,
): Promise<{ mismatches: number; detail: string }> {
  const client = chainClient(rpcUrl);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const onChain = await Promise.all(
      RECIPIENTS.map(
        (account) =>
          client.readContract({
            address: token,
            abi: TokenAbi,
            functionName: "balanceOf",
            args: [account],
          }) as Promise<bigint>,
      ),
    );
    const indexed = await indexedBalances(credentials, token);
    const differing = RECIPIENTS.filter((account, i) => indexed?.get(account.toLowerCase()) !== onChain[i]);
    if (differing.length === 0 || Date.now() > deadline) {
      const detail = differing
        .map((a) => `${a}: index ${indexed?.get(a.toLowerCase()) ?? "?"}, chain ${onChain[RECIPIENTS.indexOf(a)]}`)
        .join("; ");
      return { mismatches: differing.length, detail };
    }
    await sleep(1_000);
  }
}

/** Balances by lowercase address from the holders route; undefined while it does not answer 200. */
async function indexedBalances(credentials: Credentials, token: Address): Promise<Map<string, bigint> | undefined> {
  const res = await fetch(`${credentials.baseUrl}/api/v2/tokens/${token}/holders?page[limit]=200`, {
    headers: { "x-api-key": credentials.apiKey },
    signal: AbortSignal.timeout(10_000),
  }).catch(() => undefined);
  if (res?.status !== 200) return undefined;
  const body = (await res.json()) as { data: { account: { id: string }; value: string }[] };
  return new Map(body.data.map((h) => [h.account.id.toLowerCase(), BigInt(h.value)]));
}
