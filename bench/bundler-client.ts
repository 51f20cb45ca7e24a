// The client side of the bundler benchmark, run as its own process (as real clients are), the same against every
// bundler. OPS_FILE holds lanes: each one sender's signed operations under one nonce key (ERC-7769 JSON), in sequence
// order, and their hashes. Every lane sends its operations through viem's bundler client (eth_sendUserOperation to
// BUNDLER_URL, with API_KEY when given), each once the one before it is on chain; a sender has as many operations in
// flight as it has lanes (parallel nonce keys). That closed loop offers a bundler more load the sooner it includes
// operations; with RATE (operations a second), lane i instead starts at i / RATE seconds, whatever the others' state:
// an open loop offering every bundler the same load (each lane then holds one operation). Inclusion is watched on the
// chain itself (the EntryPoint's UserOperationEvent logs at RPC_URL), which costs neither bundler anything. Prints, as
// JSON, when it started and finished (epoch ms), each operation's send-to-inclusion latency and how long
// eth_sendUserOperation took (ms, sent again while the sender's mempool limit refused it), the latter also for each
// lane's first operation alone (in the closed loop, every lane's first is sent at once: the same burst for every
// bundler), how many bundle transactions carried the operations, how many sends that limit refused and how many
// were sent again after an internal error.
import { readFileSync } from "node:fs";
import { type Address, BaseError, createPublicClient, type Hex, http } from "viem";
import {
  createBundlerClient,
  entryPoint07Abi,
  formatUserOperation,
  type RpcUserOperation,
  type UserOperation,
} from "viem/account-abstraction";

const { BUNDLER_URL, API_KEY, ENTRY_POINT, RPC_URL, OPS_FILE, RATE, POLL_MS = "25", TIMEOUT_S = "300" } = process.env;
const lanes: { op: RpcUserOperation<"0.7">; hash: Hex }[][] = JSON.parse(readFileSync(OPS_FILE as string, "utf8"));

const bundler = createBundlerClient({
  transport: http(BUNDLER_URL, {
    retryCount: 0,
    timeout: 60_000,
    ...(API_KEY ? { fetchOptions: { headers: { "x-api-key": API_KEY } } } : {}),
  }),
});
const chain = createPublicClient({ transport: http(RPC_URL, { retryCount: 0 }) });

/** Operations seen on chain: hash -> whether it succeeded and its bundle transaction. */
const included = new Map<Hex, { success: boolean; transaction: Hex }>();
/** Lanes waiting for an operation: hash -> what resumes the lane. */
const waiting = new Map<Hex, () => void>();
let done = false;
async function watch(fromBlock: bigint) {
  let next = fromBlock;
  while (!done) {
    const head = await chain.getBlockNumber({ cacheTime: 0 });
    if (head >= next) {
      const logs = await chain.getContractEvents({
        address: ENTRY_POINT as Address,
        abi: entryPoint07Abi, // UserOperationEvent is the same in v0.7 and v0.8
        eventName: "UserOperationEvent",
        fromBlock: next,
        toBlock: head,
      });
      for (const log of logs) {
        const hash = log.args.userOpHash as Hex;
        included.set(hash, { success: log.args.success as boolean, transaction: log.transactionHash });
        waiting.get(hash)?.();
        waiting.delete(hash);
      }
      next = head + 1n;
    }
    await new Promise((r) => setTimeout(r, Number(POLL_MS)));
  }
}

// An operation a bundler drops would hold its lane for good: give up instead.
setTimeout(() => {
  console.error(`bundler-client: ${waiting.size} operations still not on chain after ${TIMEOUT_S} s`);
  process.exit(1);
}, Number(TIMEOUT_S) * 1000).unref();

/** ERC-7562's limit on a sender's operations in a mempool (-32504, 4 for an unstaked sender): a bundler whose
 * inclusion stalls refuses a sender's next operation until one is included, as a real client meets it, which sends
 * it again shortly. The acceptance time counts the wait. */
const THROTTLED = -32504;
let throttled = 0;
/** JSON-RPC's internal error, which viem's transports retry by themselves (3 times by default; this client's
 * transport does not retry, to count them): the platform answers it when the chain's node or its database did not
 * answer in time. Sent again after 100 ms, at most INTERNAL_RETRIES times an operation, the wait counted. */
const INTERNAL = -32603;
const INTERNAL_RETRIES = 3;
let retried = 0;
const hasCode = (error: unknown, code: number) =>
  error instanceof BaseError && error.walk((e) => (e as { code?: unknown }).code === code) !== null;
async function sendUntilRoom(op: RpcUserOperation<"0.7">): Promise<Hex> {
  let internalErrors = 0;
  for (;;) {
    try {
      return await bundler.sendUserOperation({
        ...(formatUserOperation(op) as UserOperation<"0.7">),
        entryPointAddress: ENTRY_POINT as Address,
      });
    } catch (error) {
      if (hasCode(error, THROTTLED)) throttled += 1;
      else if (hasCode(error, INTERNAL) && internalErrors++ < INTERNAL_RETRIES) retried += 1;
      else throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const latencies: number[] = [];
const accepts: number[] = [];
const openingAccepts: number[] = [];
const watcher = watch(await chain.getBlockNumber({ cacheTime: 0 }));
const startedAt = Date.now();
await Promise.all(
  lanes.map(async (ops, i) => {
    if (RATE) await new Promise((r) => setTimeout(r, startedAt + (i * 1000) / Number(RATE) - Date.now()));
    for (const [n, { op, hash }] of ops.entries()) {
      const sentAt = performance.now();
      const answer = await sendUntilRoom(op);
      if (answer !== hash) throw new Error(`eth_sendUserOperation answered ${answer}, not ${hash}`);
      const accepted = performance.now() - sentAt;
      accepts.push(accepted);
      if (n === 0) openingAccepts.push(accepted);
      if (!included.has(hash)) await new Promise<void>((resolve) => waiting.set(hash, resolve));
      if (!included.get(hash)?.success) throw new Error(`operation ${hash} failed on chain`);
      latencies.push(performance.now() - sentAt);
    }
  }),
);
const finishedAt = Date.now();
done = true;
await watcher;
const bundles = new Set([...included.values()].map(({ transaction }) => transaction)).size;
process.stdout.write(
  JSON.stringify({ startedAt, finishedAt, latencies, accepts, openingAccepts, bundles, throttled, retried }),
);
