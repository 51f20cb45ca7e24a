// What the index serves about one token next to what the chain says: balances, freezes, supply, pause, holder count
// and the number of events of each name (the token's event log and the token account's activity feed).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type pg from "pg";
import { type Address, createPublicClient, getAddress, http } from "viem";
import { TokenAbi } from "../../abis/Token.ts";
import { createIndexStatus } from "../../host/index-status.ts";
import { json, stackChain, type TestStack } from "./stack.ts";

/** The token's events the index records (src/Token.ts); the chain's other logs (Transfer, roles) are not compared. */
export const INDEXED_EVENTS = [
  "ComplianceSet",
  "MintCompleted",
  "BurnCompleted",
  "TransferCompleted",
  "ForcedTransfer",
  "Paused",
  "Unpaused",
  "AddressFrozen",
  "TokensFrozen",
  "TokensUnfrozen",
] as const;

export interface TokenView {
  totalSupply: string;
  paused: boolean;
  holderCount: number;
  /** By lowercase address: value, frozen amount, whole-address freeze. */
  accounts: Record<string, { value: string; frozen: string; isFrozen: boolean }>;
  /** Event counts by name (INDEXED_EVENTS only; 0 omitted). */
  events: Record<string, number>;
  /** The same counts from the token account's activity feed (without the creation's ComplianceSet). */
  activity: Record<string, number>;
}

/** How long settle waits for one block before mining another. */
const NUDGE_MS = 15_000;
/**
 * How long settle (and a test waiting for the index after a reorg) waits in all. Ponder's realtime sync fetches one
 * block at a time, and a block a reorg removed while its logs were being asked for (by its hash) is asked again with
 * Ponder's RPC retries: 9 of them, 125 ms doubling each time, about 64 s in all, before it moves on to the next block.
 * A CI run met that once with 60 s.
 */
export const AFTER_REORG_MS = 120_000;

const indexedOnly = (counts: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(counts).filter(([name, n]) => n > 0 && (INDEXED_EVENTS as readonly string[]).includes(name)),
  );
/** The activity feed files a token's events once its TokenCreated is indexed: not the ComplianceSet before it. */
const inActivity = (counts: Record<string, number>) => {
  const { ComplianceSet: _, ...rest } = indexedOnly(counts);
  return rest;
};

export function indexVsChain(stack: TestStack, ledger: pg.Client) {
  const client = createPublicClient({ chain: stackChain(stack), transport: http() });
  const status = createIndexStatus(`http://127.0.0.1:${stack.env.PONDER_PORT}`);
  const { chainId } = stack.platform.credentials;

  const get = async (path: string) => {
    const res = await stack.api(path);
    const body = await json(res);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(body)}`);
    return body;
  };
  const facetCounts = (facet: { value: string; count: number }[]): Record<string, number> =>
    indexedOnly(Object.fromEntries(facet.map((b) => [b.value, b.count])));

  return {
    /**
     * Mines one block and waits until the index has processed it: a reorg keeps the chain's height, so only a block
     * past it proves the index is on the new branch (Ponder reconciles when the new block's parent is not its own).
     */
    async settle(timeoutMs = AFTER_REORG_MS) {
      // Another block every NUDGE_MS while waiting, as a live chain makes them: Ponder's realtime sync that is still
      // retrying a block a reorg removed (its logs asked by that block's hash) moves on when a new block arrives.
      const deadline = Date.now() + timeoutMs;
      let head: bigint;
      let reached: boolean;
      do {
        await stack.rpc("anvil_mine", ["0x1"]);
        head = await client.getBlockNumber({ cacheTime: 0 });
        reached = await status.waitForBlock(chainId, head, Math.min(NUDGE_MS, Math.max(deadline - Date.now(), 1)));
      } while (!reached && Date.now() < deadline);
      if (!reached) {
        const log = readFileSync(join(stack.dataDir, "logs", "ponder.log"), "utf8")
          .split("\n")
          .slice(-20)
          .join("\n");
        const at = await status.indexedBlock(chainId);
        throw new Error(`the index is at block ${at}, not ${head}, after ${timeoutMs} ms; its log ends:\n${log}`);
      }
    },

    /**
     * Polls until the index's view equals the chain's or `timeoutMs` passes; both views, the last ones read. For a
     * reorg that kept the chain's height (Ponder must notice the head's new hash without a further block).
     */
    async converged(token: Address, accounts: string[], timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [indexed, onChain] = await Promise.all([this.index(token, accounts), this.chain(token, accounts)]);
        if (JSON.stringify(indexed) === JSON.stringify(onChain) || Date.now() > deadline) return { indexed, onChain };
        await new Promise((r) => setTimeout(r, 200));
      }
    },

    /** The chain's truth about `token` for `accounts`. */
    async chain(token: Address, accounts: string[]): Promise<TokenView> {
      const read = <T>(functionName: string, args: unknown[] = []) =>
        client.readContract({ address: token, abi: TokenAbi, functionName, args } as never) as Promise<T>;
      const entries = await Promise.all(
        accounts.map(async (account) => {
          const [value, frozen, isFrozen] = await Promise.all([
            read<bigint>("balanceOf", [account]),
            read<bigint>("frozenBalanceOf", [account]),
            read<boolean>("isFrozen", [account]),
          ]);
          return [account.toLowerCase(), { value: String(value), frozen: String(frozen), isFrozen }] as const;
        }),
      );
      const logs = await client.getContractEvents({ address: token, abi: TokenAbi, fromBlock: 0n, toBlock: "latest" });
      const counts: Record<string, number> = {};
      for (const log of logs) counts[log.eventName] = (counts[log.eventName] ?? 0) + 1;
      return {
        totalSupply: String(await read<bigint>("totalSupply")),
        paused: await read<boolean>("paused"),
        holderCount: entries.filter(([, a]) => a.value !== "0").length,
        accounts: Object.fromEntries(entries),
        events: indexedOnly(counts),
        activity: inActivity(counts),
      };
    },

    /**
     * The index's view through the API (token record, holders, event log facets, the token's activity feed facets),
     * and freezes of accounts without a balance (the holders route lists positive balances only) from the views.
     */
    async index(token: Address, accounts: string[]): Promise<TokenView> {
      const [record, holders, events, activity, rows] = await Promise.all([
        get(`/api/v2/token/${token}`),
        get(`/api/v2/tokens/${token}/holders?page[limit]=200`),
        get(`/api/v2/tokens/${token}/events?page[limit]=1`),
        get(`/api/v2/system/accounts/${token}/activities?page[limit]=1`),
        ledger.query("select account, value, frozen, is_frozen from ledger.token_balance where token = $1", [
          token.toLowerCase(),
        ]),
      ]);
      const listed = new Map<string, { value: string; frozen: string; isFrozen: boolean }>(
        holders.data.map((h: { account: { id: string }; value: string; frozen: string; isFrozen: boolean }) => [
          h.account.id.toLowerCase(),
          { value: h.value, frozen: h.frozen, isFrozen: h.isFrozen },
        ]),
      );
      const stored = new Map(rows.rows.map((r) => [getAddress(r.account).toLowerCase(), r]));
      for (const address of listed.keys()) {
        if (!accounts.some((a) => a.toLowerCase() === address)) throw new Error(`unexpected holder ${address}`);
      }
      return {
        totalSupply: record.data.totalSupply,
        paused: record.data.paused,
        holderCount: record.data.holderCount,
        accounts: Object.fromEntries(
          accounts.map((account) => {
            const key = account.toLowerCase();
            const row = stored.get(key);
            const fromViews = {
              value: String(row?.value ?? "0"),
              frozen: String(row?.frozen ?? "0"),
              isFrozen: row?.is_frozen ?? false,
            };
            return [key, listed.get(key) ?? fromViews];
          }),
        ),
        events: facetCounts(events.meta.facets.eventName),
        activity: inActivity(facetCounts(activity.meta.facets.eventName)),
      };
    },
  };
}
