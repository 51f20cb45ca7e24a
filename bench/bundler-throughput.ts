// Issue #16's figures: UserOperations per second through POST /api/v2/bundler until each has its receipt
// (eth_getUserOperationReceipt), beside the same kind of operations (same SimpleAccounts, same call, same gas
// fields) sent by a test EOA straight to the EntryPoint's handleOps, in bundles of the size the bundler achieved,
// until mined; as a ratio. And the bundler path's send-to-receipt latency.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type Address, createPublicClient, encodeFunctionData, type Hex, http, keccak256, parseEventLogs } from "viem";
import { entryPoint08Abi, formatUserOperationRequest, toPackedUserOperation } from "viem/account-abstraction";
import { anvilAccount } from "../test/support/api-flows.ts";
import { bootStack, platformDbUrl, stackChain } from "../test/support/stack.ts";
import { runClientProcess } from "./client-process.ts";
import { type BenchAccount, simpleAccounts } from "./simple-accounts.ts";
import { summary } from "./stats.ts";

const SENDERS = Number(process.env.BUNDLER_BENCH_SENDERS ?? 32);
const ROUNDS = Number(process.env.BUNDLER_BENCH_ROUNDS ?? 10);
/** A lane's operations not yet in a receipt at most (the mempool holds 4 of an unstaked sender, ERC-7562). */
const WINDOW = 4;
/** Gas a handleOps transaction gets per operation it carries (explicit, as the operations' own limits are). */
const GAS_PER_OPERATION = 400_000n;

const runClient = (env: Record<string, string>) => runClientProcess("bundler-client.ts", env);

export async function benchBundlerThroughput(): Promise<void> {
  const stack = await bootStack({ API_KEY_RATE_LIMIT: "100000000" });
  const db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
  await db.connect();
  const dir = mkdtempSync(join(tmpdir(), "bundler-bench-"));
  try {
    const chain = stackChain(stack);
    const client = createPublicClient({ chain, transport: http() });
    const entryPoint = stack.platform.manifest.entryPoint as Address;
    const { accounts, operation } = await simpleAccounts({
      chain,
      entryPoint,
      deployer: anvilAccount(9),
      count: SENDERS,
    });
    // Every operation of both runs signed before either starts: nonces 1..ROUNDS through the bundler, the next
    // ROUNDS straight to handleOps.
    const signRounds = (first: number) =>
      Promise.all(
        accounts.map((account: BenchAccount) =>
          Promise.all(Array.from({ length: ROUNDS }, (_, r) => operation(account, BigInt(first + r)))),
        ),
      );
    const viaBundler = await signRounds(1);
    const direct = await signRounds(1 + ROUNDS);
    const total = SENDERS * ROUNDS;

    // Through the bundler, from a client process of its own: one lane per sender.
    const opsFile = join(dir, "ops.json");
    writeFileSync(
      opsFile,
      JSON.stringify(
        viaBundler.map((ops) => ops.map(({ op, hash }) => ({ op: formatUserOperationRequest(op), hash }))),
      ),
    );
    const {
      startedAt,
      finishedAt,
      latencies,
      accepts,
    }: { startedAt: number; finishedAt: number; latencies: number[]; accepts: number[] } = JSON.parse(
      await runClient({
        BASE_URL: stack.platform.baseUrl,
        API_KEY: stack.platform.credentials.apiKey,
        ENTRY_POINT: entryPoint,
        OPS_FILE: opsFile,
        WINDOW: String(WINDOW),
      }),
    );
    const bundlerSeconds = (finishedAt - startedAt) / 1000;
    const { rows: bundles } = await db.query<{ size: number }>(
      `select count(*)::int as size from platform.bundler_user_operations
       where status = 'included' group by transaction_hash`,
    );
    const included = bundles.reduce((n, b) => n + b.size, 0);
    if (included !== total) throw new Error(`${included} of ${total} operations included`);
    const meanBundle = included / bundles.length;

    // Straight to handleOps: a test EOA sends bundles of the size the bundler achieved, signed and sent in nonce
    // order (each send answered before the next), then waits for every receipt.
    const size = Math.max(1, Math.round(meanBundle));
    const eoa = anvilAccount(8);
    const directStart = performance.now();
    const [nonce, fees] = await Promise.all([
      client.getTransactionCount({ address: eoa.address, blockTag: "pending" }),
      client.estimateFeesPerGas(),
    ]);
    const hashes: Hex[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (let from = 0; from < SENDERS; from += size) {
        const ops = direct.slice(from, from + size).map((ops) => toPackedUserOperation(ops[round].op));
        const raw = await eoa.signTransaction({
          chainId: chain.id,
          type: "eip1559",
          to: entryPoint,
          data: encodeFunctionData({ abi: entryPoint08Abi, functionName: "handleOps", args: [ops, eoa.address] }),
          gas: GAS_PER_OPERATION * BigInt(ops.length) + 100_000n,
          nonce: nonce + hashes.length,
          ...fees,
        });
        await client.sendRawTransaction({ serializedTransaction: raw });
        hashes.push(keccak256(raw));
      }
    }
    const receipts = await Promise.all(
      hashes.map((hash) => client.waitForTransactionReceipt({ hash, pollingInterval: 25 })),
    );
    const directSeconds = (performance.now() - directStart) / 1000;
    const succeeded = receipts.flatMap((receipt) =>
      parseEventLogs({ abi: entryPoint08Abi, eventName: "UserOperationEvent", logs: receipt.logs }).filter(
        (event) => event.args.success,
      ),
    ).length;
    if (succeeded !== total) throw new Error(`${succeeded} of ${total} direct operations succeeded`);

    const bundlerRate = total / bundlerSeconds;
    const directRate = total / directSeconds;
    console.log(
      `bundler throughput (issue #16; ${SENDERS} SimpleAccounts x ${ROUNDS} operations, ${SENDERS} client lanes of up to ${WINDOW} operations in flight)`,
    );
    console.log(
      `  through POST /api/v2/bundler, send to receipt: ${total} ops in ${bundlerSeconds.toFixed(2)} s = ${bundlerRate.toFixed(1)} ops/s (${bundles.length} bundles, ${meanBundle.toFixed(1)} ops each on average)`,
    );
    console.log(
      `  direct handleOps by a test EOA, ${size} ops per bundle, until mined: ${total} ops in ${directSeconds.toFixed(2)} s = ${directRate.toFixed(1)} ops/s`,
    );
    console.log(`  bundler/direct ratio: ${(bundlerRate / directRate).toFixed(2)} (target >= 0.5)`);
    console.log(`  send to receipt through the bundler: ${summary(latencies)}`);
    console.log(`  eth_sendUserOperation (acceptance: simulation, ERC-7562 rules, mempool write): ${summary(accepts)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await db.end();
    await stack.stop();
  }
}
