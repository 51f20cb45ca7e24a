// Issue #4's and #19's figures: mints per second through the API to COMPLETED, beside raw viem sends of the same
// calls by the same key to the same anvil (each send answered before the next, then every receipt), as a ratio; and
// the latency from POST to COMPLETED under Prefer: wait. Both for each way the embedded chain mines: a block per
// transaction (`instant`, the tests' chain) and a block a second (`interval`, what `npm start` runs).
import pg from "pg";
import { type Address, encodeFunctionData, type Hex, keccak256 } from "viem";
import { TokenAbi } from "../abis/Token.ts";
import { createChainService } from "../host/chain/chain-service.ts";
import { loadConfig } from "../host/config.ts";
import { loadMasterKey } from "../host/crypto/master-key.ts";
import { createConfiguredCustody } from "../host/custody/custody-provider.ts";
import { openDatabases } from "../host/db/database.ts";
import { createIndexStatus } from "../host/index-status.ts";
import { START_DEFAULTS } from "../scripts/start-defaults.ts";
import { bootStack, json } from "../test/support/stack.ts";
import { MINT_RECIPIENT, timedApiMints } from "./api-mints.ts";
import { indexCaughtUp } from "./index-caught-up.ts";
import { summary } from "./stats.ts";

const MINTS = Number(process.env.BENCH_MINTS ?? 400);
/** Mints each side makes first, unmeasured (a host serves from warm code, as a long-running one does). */
const WARMUP_MINTS = Number(process.env.BENCH_WARMUP_MINTS ?? 400);
const WAIT_SAMPLES = Number(process.env.BENCH_WAIT_SAMPLES ?? 100);
const RECIPIENT = MINT_RECIPIENT as Address;

async function inBatches<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

export async function benchMintThroughput(): Promise<void> {
  await mintThroughput({ ANVIL_MINING: "instant", ANVIL_BLOCK_TIME_SECONDS: "0" });
  await mintThroughput(START_DEFAULTS);
}

async function mintThroughput(mining: Record<string, string>): Promise<void> {
  const stack = await bootStack({ ...mining, API_KEY_RATE_LIMIT: "100000000", WORKER_CONCURRENCY: "8" });
  const db = new pg.Client({
    connectionString: `postgres://platform:platform@127.0.0.1:${stack.env.EMBEDDED_POSTGRES_PORT}/platform`,
  });
  await db.connect();
  try {
    const created = await json(
      await stack.api("/api/v2/tokens", {
        method: "POST",
        headers: { prefer: "wait=30" },
        body: JSON.stringify({ templateId: "deposit", name: "Bench", symbol: "BNCH" }),
      }),
    );
    const token = created.data.tokenAddress as Address;
    const mintBody = JSON.stringify({ recipients: [RECIPIENT], amounts: ["1"] });

    // Through the API, from a client process of its own (as real clients are): 32 POSTs in flight, until every
    // request is COMPLETED.
    const apiRun = (mints: number) =>
      timedApiMints(db, {
        baseUrl: stack.platform.baseUrl,
        apiKey: stack.platform.credentials.apiKey,
        token,
        mints,
      });
    // Raw viem: the same calls signed by the same key, sent in nonce order, then every receipt.
    const config = loadConfig(stack.env);
    const dbs = openDatabases(
      `postgres://platform:platform@127.0.0.1:${stack.env.EMBEDDED_POSTGRES_PORT}/platform`,
      "ledger",
      1,
    );
    const signerAddress = (
      await db.query(
        "select address from platform.wallets where organization_id = $1 and user_id is null order by created_at limit 1",
        [stack.platform.credentials.organizationId],
      )
    ).rows[0].address;
    const account = await createConfiguredCustody(config, dbs.platform, loadMasterKey(config)).signer(
      stack.platform.credentials.organizationId,
      signerAddress,
    );
    const { client } = createChainService(stack.platform.credentials.rpcUrl, 31337);
    const data = encodeFunctionData({ abi: TokenAbi, functionName: "batchMint", args: [[RECIPIENT], [1n]] });
    const rawRun = async (mints: number) => {
      const rawStart = performance.now();
      const [nonce, fees, gas] = await Promise.all([
        client.getTransactionCount({ address: account.address, blockTag: "pending" }),
        client.estimateFeesPerGas(),
        client.estimateGas({ account, to: token, data }),
      ]);
      const hashes: Hex[] = [];
      for (let i = 0; i < mints; i++) {
        const raw = await account.signTransaction({
          chainId: 31337,
          type: "eip1559",
          to: token,
          data,
          gas: (gas * 12n) / 10n,
          nonce: nonce + i,
          ...fees,
        });
        await client.sendRawTransaction({ serializedTransaction: raw });
        hashes.push(keccak256(raw));
      }
      await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash, pollingInterval: 50 })));
      return (performance.now() - rawStart) / 1000;
    };

    // Both warmed up first with a run of the same shape, unmeasured. Each measured run starts once the index has
    // caught up with the chain: neither shares the node with the index catching up on the other's blocks (a block
    // per transaction leaves it hundreds behind).
    if (WARMUP_MINTS > 0) {
      await apiRun(WARMUP_MINTS);
      await rawRun(WARMUP_MINTS);
    }
    await indexCaughtUp(stack);
    const apiSeconds = await apiRun(MINTS);
    await indexCaughtUp(stack);
    const rawSeconds = await rawRun(MINTS);

    // Latency under Prefer: wait (16 callers at a time): first right after the raw burst, which leaves the index
    // behind the chain (a block per transaction: hundreds of blocks), then from an index caught up with the chain.
    const waitLatencies = async () => {
      const head = Number(await client.getBlockNumber());
      const indexed = (await createIndexStatus(stack.platform.parts.indexerUrl).indexedBlock(31337)) ?? 0;
      const latencies: number[] = [];
      await inBatches(
        Array.from({ length: WAIT_SAMPLES }, (_, i) => i),
        16,
        async () => {
          const t0 = performance.now();
          const res = await stack.api(`/api/v2/tokens/${token}/mint`, {
            method: "POST",
            headers: { prefer: "wait=60" },
            body: mintBody,
          });
          if (res.status !== 200) throw new Error(`Prefer: wait mint answered ${res.status}: ${await res.text()}`);
          latencies.push(performance.now() - t0);
        },
      );
      return { latencies, behind: head - indexed };
    };
    const afterBurst = await waitLatencies();
    await indexCaughtUp(stack);
    const caughtUp = await waitLatencies();

    const apiRate = MINTS / apiSeconds;
    const rawRate = MINTS / rawSeconds;
    const blockTime = Number(mining.ANVIL_BLOCK_TIME_SECONDS);
    const chainLabel = mining.ANVIL_MINING === "interval" ? `a block every ${blockTime} s` : "a block per transaction";
    console.log(`mint throughput (issues #4, #19), chain mining ${mining.ANVIL_MINING}: ${chainLabel}`);
    console.log(
      `  API, POST to COMPLETED: ${MINTS} mints in ${apiSeconds.toFixed(2)} s = ${apiRate.toFixed(1)} mints/s`,
    );
    console.log(
      `  raw viem, same key and calls: ${MINTS} mints in ${rawSeconds.toFixed(2)} s = ${rawRate.toFixed(1)} mints/s`,
    );
    console.log(`  ratio API / raw: ${(apiRate / rawRate).toFixed(2)} (target >= 0.7)`);
    console.log(
      `  POST to COMPLETED under Prefer: wait=60, 16 concurrent callers: ${summary(caughtUp.latencies)} ` +
        `(p99 target < 3 s; the index ${caughtUp.behind} blocks behind the chain when they started)`,
    );
    console.log(
      `    the same right after the raw burst: ${summary(afterBurst.latencies)} ` +
        `(the index ${afterBurst.behind} blocks behind the chain when they started)`,
    );
    await dbs.close(); // open until here: each signature of the raw runs is recorded in the custody audit log
  } finally {
    await db.end();
    await stack.stop();
  }
}
