// The bundler (plugins/bundler) end to end on one booted stack: viem's bundler client and permissionless send
// UserOperations of SimpleAccounts (the package's own, deployed by the test against the platform's EntryPoint)
// through POST /api/v2/bundler, wait for their receipts and read them back; a bad signature is refused with -32507
// before it reaches the chain; the JSON-RPC rules (notifications, unknown methods, batches, parse errors); and three
// senders' operations in two handleOps sent at once by two executors (manual bundling mode, sendBundleNow). Both EntryPoints, v0.8 and v0.7
// (each with its own SimpleAccount release); estimation on a state override; lookups of an operation another bundler
// mined, within BUNDLER_RECEIPT_LOOKBACK_BLOCKS. EIP-7702: a fresh EOA delegated to Simple7702Account by its first
// operation's eip7702Auth (viem's 7702 helpers; the bundle a type-4 transaction), then an operation without it.
// ERC-7562 reputation: a paymaster's operations counted seen and included, refused banned (-32504), cleared; a
// throttled paymaster's operations dropped after THROTTLED_ENTITY_LIVE_BLOCKS. STO-041: storage of another live
// operation's sender refused at acceptance, held back when bundling (senders waiting on one another: the first
// accepted goes first). A bundle whose run stopped between claiming its operations and queuing its write (the state
// such a crash leaves, written in the table) is finished once. Replacement: fees 10 % higher, never of an operation a
// bundle claimed; acceptances never wait for (nor deadlock with) the rows a bundle's update holds.

import { sql } from "kysely";
import { createSmartAccountClient } from "permissionless";
import { toSimpleSmartAccount } from "permissionless/accounts";
import { v7 as uuidv7 } from "uuid";
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  toHex,
} from "viem";
import {
  createBundlerClient,
  entryPoint07Abi,
  entryPoint08Abi,
  formatUserOperationRequest,
  getUserOperationHash,
  toPackedUserOperation,
  toSimple7702SmartAccount,
  type UserOperation,
} from "viem/account-abstraction";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { signAuthorization } from "viem/actions";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  accountAbstractionArtifact,
  CANONICAL_ENTRY_POINT_V07,
  type EntryPointVersion,
} from "../host/chain/entry-point.ts";
import { createServedChains } from "../host/chain/served-chains.ts";
import { openDatabases } from "../host/db/database.ts";
import { addKeyedJobSql } from "../host/worker/keyed-jobs.ts";
import { userOperationEvents } from "../plugins/bundler/bundle.ts";
import { linkBundleQuery } from "../plugins/bundler/bundle-claims.ts";
import { BUNDLE_TASK, bundleJob } from "../plugins/bundler/bundle-job.ts";
import { type BundlePace, untilWorthBundling } from "../plugins/bundler/bundle-pace.ts";
import { insertUnlessContended, markAccepted, type NewOperation } from "../plugins/bundler/quick-insert.ts";
import { simulateValidation, validationCaches } from "../plugins/bundler/simulation.ts";
import { bundlerDb } from "../plugins/bundler/tables.ts";
import { packed, type RpcUserOperation, toUserOperation } from "../plugins/bundler/user-operation.ts";
import { staleBundlingRuns } from "../plugins/bundler/wake-sweep.ts";
import { anvilAccount } from "./support/api-flows.ts";
import { nodeStateOf } from "./support/node-state.ts";
import { bootStack, platformDbUrl, stackChain, type TestStack } from "./support/stack.ts";

const RECIPIENT: Address = "0x000000000000000000000000000000000000bEEF";
const LOOKBACK_BLOCKS = 64;

describe("bundler (POST /api/v2/bundler)", () => {
  let stack: TestStack;
  let client: PublicClient;
  let chain: Chain;
  let entryPoint: Address;
  let entryPointV07: Address;
  let factory: Address;
  let factoryV07: Address;
  /** An operation of the v0.7 EntryPoint the bundler mined (the index must hold it). */
  let v07Operation: Hex;
  let url: string;
  const headers = () => ({ "X-Api-Key": stack.platform.credentials.apiKey });
  const transport = () => http(url, { fetchOptions: { headers: headers() } });

  async function rpc(body: unknown) {
    const res = await stack.api("/api/v2/bundler", {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers of every shape
    return { status: res.status, body: (res.status === 204 ? undefined : await res.json()) as any };
  }

  /** A fresh SimpleAccount of the EntryPoint's release (counterfactual: the first operation deploys it), funded with
   * 1 ETH. */
  async function simpleAccount(version: EntryPointVersion = "0.8") {
    const account = await toSimpleSmartAccount({
      client,
      owner: privateKeyToAccount(generatePrivateKey()),
      ...(version === "0.8"
        ? { entryPoint: { address: entryPoint, version: "0.8" as const }, factoryAddress: factory }
        : { entryPoint: { address: entryPointV07, version: "0.7" as const }, factoryAddress: factoryV07 }),
    });
    const funder = createWalletClient({ account: anvilAccount(9), chain, transport: http() });
    await client.waitForTransactionReceipt({
      hash: await funder.sendTransaction({ to: account.address, value: parseEther("1") }),
    });
    return account;
  }

  /** Bundling set to manual once the mempool is empty: what an earlier test left waiting is bundled first (in auto
   * mode), so debug_bundler_sendBundleNow's oldest operation is the test's own. */
  async function bundlingManual() {
    await vi.waitFor(
      async () => {
        for (const at of [entryPoint, entryPointV07]) {
          const pool = await rpc({ jsonrpc: "2.0", id: 1, method: "debug_bundler_dumpMempool", params: [at] });
          expect(pool.body.result, `the mempool of ${at} before manual mode`).toEqual([]);
        }
      },
      { timeout: 30_000, interval: 100 },
    );
    const manual = await rpc({ jsonrpc: "2.0", id: 1, method: "debug_bundler_setBundlingMode", params: ["manual"] });
    expect(manual.body.result).toBe("ok");
  }

  /** Bundling set to manual, then one operation of each account (1 wei to RECIPIENT) accepted: their hashes. */
  async function acceptedInManualMode(accounts: Awaited<ReturnType<typeof simpleAccount>>[]): Promise<Hex[]> {
    await bundlingManual();
    const hashes: Hex[] = [];
    for (const account of accounts) {
      const bundler = createBundlerClient({ account, client, transport: transport() });
      hashes.push(await bundler.sendUserOperation({ calls: [{ to: RECIPIENT, value: 1n }] }));
    }
    return hashes;
  }

  type SimpleAccount = Awaited<ReturnType<typeof simpleAccount>>;

  /** A fresh SimpleAccount deployed by a first operation (so its next ones need no factory), its bundler client, and
   * bundling set to manual. */
  async function deployedInManualMode() {
    const account = await simpleAccount();
    const bundler = createBundlerClient({ account, client, transport: transport() });
    await bundler.waitForUserOperationReceipt({
      hash: await bundler.sendUserOperation({ calls: [{ to: RECIPIENT, value: 1n }] }),
      timeout: 30_000,
    });
    await bundlingManual();
    return { account, bundler };
  }

  /** An operation signed by its account, in the JSON-RPC form eth_sendUserOperation takes. */
  async function signedRequest(account: SimpleAccount, op: UserOperation<"0.8">) {
    return formatUserOperationRequest({ ...op, signature: await account.signUserOperation(op) });
  }

  /** eth_sendUserOperation's JSON-RPC answer to `op` (its result or its error). */
  async function sendOperation(op: object) {
    return (await rpc({ jsonrpc: "2.0", id: 2, method: "eth_sendUserOperation", params: [op, entryPoint] })).body;
  }

  /** Bundling back to auto; then both operations mined, successfully, `later` in a later block than `earlier`. */
  async function minedInOrder(earlier: Hex, later: Hex) {
    const auto = await rpc({ jsonrpc: "2.0", id: 2, method: "debug_bundler_setBundlingMode", params: ["auto"] });
    expect(auto.body.result).toBe("ok");
    const bundler = createBundlerClient({ client, transport: transport(), pollingInterval: 100 });
    const [first, second] = await Promise.all(
      [earlier, later].map((hash) => bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 })),
    );
    expect([first.success, second.success]).toEqual([true, true]);
    expect(second.receipt.blockNumber).toBeGreaterThan(first.receipt.blockNumber);
  }

  /** 1 ETH deposited at the v0.8 EntryPoint for `address` (it pays its operations' gas from it). */
  async function deposit(address: Address) {
    const funder = createWalletClient({ account: anvilAccount(9), chain, transport: http() });
    await client.waitForTransactionReceipt({
      hash: await funder.writeContract({
        address: entryPoint,
        abi: entryPoint08Abi,
        functionName: "depositTo",
        args: [address],
        value: parseEther("1"),
      }),
    });
  }

  /** A raw operation of a hand-coded account (any signature passes), paid by its deposit or by `paymaster`. */
  const operation = (sender: Address, paymaster?: Address) => ({
    sender,
    nonce: "0x0",
    callData: "0x" as Hex,
    callGasLimit: "0x5000",
    verificationGasLimit: "0x20000",
    preVerificationGas: "0x10000",
    maxFeePerGas: "0x3b9aca00",
    maxPriorityFeePerGas: "0x3b9aca00",
    signature: "0x" as Hex,
    ...(paymaster
      ? {
          paymaster,
          paymasterVerificationGasLimit: "0x20000",
          paymasterPostOpGasLimit: "0x5000",
          paymasterData: "0x" as Hex,
        }
      : {}),
  });

  /** Bundling set to manual, then `op` accepted: its hash. */
  async function acceptedWhileManual(op: ReturnType<typeof operation>): Promise<Hex> {
    await bundlingManual();
    const accepted = await rpc({ jsonrpc: "2.0", id: 2, method: "eth_sendUserOperation", params: [op, entryPoint] });
    expect(accepted.body.result, JSON.stringify(accepted.body)).toMatch(/^0x[0-9a-f]{64}$/);
    return accepted.body.result;
  }

  /** A bundling run sent now drops the operation whose validated code at `address` changed (COD-010): -32500. */
  async function expectDroppedForChangedCode(address: Address) {
    const sent = await rpc({ jsonrpc: "2.0", id: 3, method: "debug_bundler_sendBundleNow", params: [] });
    expect(sent.body.error).toMatchObject({ code: -32500 });
    expect(sent.body.error.message).toContain(`[COD-010] the code of ${address}`);
  }

  /** The mempool rows of `hashes`: what became of each operation. */
  async function operationRows(hashes: Hex[]) {
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    try {
      return await bundlerDb(db.platform)
        .selectFrom("bundlerUserOperations")
        .select(["userOpHash", "status", "failureReason", "bundleId", "executor", "transactionRequestId", "createdAt"])
        .where(
          "userOpHash",
          "in",
          hashes.map((hash) => hash.toLowerCase()),
        )
        .execute();
    } finally {
      await db.close();
    }
  }

  /** The bundling runs' jobs still queued (a failed run's error, its attempts), for an assertion's message. */
  async function bundleJobs() {
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    try {
      const { rows } = await sql<{
        key: string;
        payload: unknown;
      }>`select j.key, j.payload, j.attempts, j.last_error, j.locked_at, j.run_at
        from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = ${BUNDLE_TASK}`.execute(db.platform);
      return rows;
    } finally {
      await db.close();
    }
  }

  /** A JSON-RPC answer, the mempool rows of `hashes` and the bundling jobs, for an assertion's message. */
  async function answerAndRows(answer: unknown, hashes: Hex[]): Promise<string> {
    return `answer ${JSON.stringify(answer)}; operations ${JSON.stringify(await operationRows(hashes))}; bundling jobs ${JSON.stringify(await bundleJobs())}`;
  }

  /** The receipt of a bundle sendBundleNow answered, within 30 s: else what the platform and the node say of its
   * write (so a bundle never mined names itself rather than the test's timeout). */
  async function bundleMined(hash: Hex) {
    try {
      return await client.waitForTransactionReceipt({ hash, timeout: 30_000 });
    } catch (error) {
      const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
      try {
        const write = await db.platform
          .selectFrom("transactionRequests")
          .select(["id", "status", "subStatus", "nonce", "fromAddress", "replacedHashes", "feeBumps", "errorMessage"])
          .where(sql<boolean>`${hash} = any(broadcast_hashes) or transaction_hash = ${hash}`)
          .executeTakeFirst();
        const from = write?.fromAddress ?? "0x0000000000000000000000000000000000000000";
        const node = await nodeStateOf(stack, from, [hash, ...(write?.replacedHashes ?? [])]);
        throw new Error(`bundle ${hash} not mined in 30 s: ${JSON.stringify({ write, node })}`, { cause: error });
      } finally {
        await db.close();
      }
    }
  }

  const setCode = (address: Address, code: Hex) =>
    client.request({ method: "anvil_setCode" as never, params: [address, code] as never });

  beforeAll(async () => {
    stack = await bootStack({
      BUNDLER_VALIDATION: "safe", // the embedded chain's default is unsafe: the ERC-7562 tests need the rules
      BUNDLER_DEBUG_METHODS: "true",
      BUNDLER_RECEIPT_LOOKBACK_BLOCKS: String(LOOKBACK_BLOCKS),
      BUNDLER_BUNDLE_TARGET_SIZE: "2", // two operations fill a bundle: the executors' split needs three, not seventeen
    });
    url = `${stack.platform.baseUrl}/api/v2/bundler`;
    chain = stackChain(stack);
    client = createPublicClient({ chain, transport: http(), pollingInterval: 100 }) as PublicClient;
    entryPoint = stack.platform.manifest.entryPoint as Address;
    entryPointV07 = stack.platform.manifest.entryPointV07 as Address;
    const deployer = createWalletClient({ account: anvilAccount(9), chain, transport: http() });
    const deployFactory = async (version: EntryPointVersion, at: Address) => {
      const { abi, bytecode } = accountAbstractionArtifact("SimpleAccountFactory", version);
      const receipt = await client.waitForTransactionReceipt({
        hash: await deployer.deployContract({ abi, bytecode, args: [at] }),
      });
      return receipt.contractAddress as Address;
    };
    factory = await deployFactory("0.8", entryPoint);
    factoryV07 = await deployFactory("0.7", entryPointV07);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("serves the platform's EntryPoints v0.8 and v0.7 (at its canonical address) and the chain id", async () => {
    expect(await client.getCode({ address: entryPoint })).not.toBe("0x");
    expect(entryPointV07).toBe(CANONICAL_ENTRY_POINT_V07);
    expect(await client.getCode({ address: entryPointV07 })).not.toBe("0x");
    // The bundler's simulations of each, which the EntryPoint runs by delegateAndRevert (simulation-call.ts).
    const { entryPointSimulations, entryPointV07Simulations } = stack.platform.manifest;
    for (const simulations of [entryPointSimulations, entryPointV07Simulations])
      expect(await client.getCode({ address: simulations as Address })).toMatch(/^0x[0-9a-f]{1000,}$/);
    expect(await rpc({ jsonrpc: "2.0", id: 1, method: "eth_supportedEntryPoints", params: [] })).toEqual({
      status: 200,
      body: { jsonrpc: "2.0", id: 1, result: [entryPoint, entryPointV07] },
    });
    const { body } = await rpc({ jsonrpc: "2.0", id: "a", method: "eth_chainId" });
    expect(body.result).toBe(`0x${stack.platform.credentials.chainId.toString(16)}`);
  });

  it("viem's bundler client sends a UserOperation and reads it back", async () => {
    const account = await simpleAccount();
    const bundler = createBundlerClient({ account, client, transport: transport(), pollingInterval: 200 });
    const hash = await bundler.sendUserOperation({ calls: [{ to: RECIPIENT, value: 1000n }] });
    const receipt = await bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 });
    expect(receipt.success).toBe(true);
    expect(receipt.userOpHash).toBe(hash);
    expect(receipt.sender.toLowerCase()).toBe(account.address.toLowerCase());
    expect(receipt.receipt.to?.toLowerCase()).toBe(entryPoint.toLowerCase());
    expect(await client.getBalance({ address: RECIPIENT })).toBeGreaterThanOrEqual(1000n);

    const read = await bundler.getUserOperation({ hash });
    expect(read.transactionHash).toBe(receipt.receipt.transactionHash);
    expect(read.blockNumber).toBe(receipt.receipt.blockNumber);
    expect(read.userOperation.sender.toLowerCase()).toBe(account.address.toLowerCase());
    expect((await bundler.getUserOperationReceipt({ hash })).actualGasCost).toBe(receipt.actualGasCost);
  });

  it("refuses a bad signature with -32507 before it reaches the chain", async () => {
    const account = await simpleAccount();
    const bundler = createBundlerClient({ account, client, transport: transport() });
    const prepared = await bundler.prepareUserOperation({ calls: [{ to: RECIPIENT, value: 1n }] });
    const hash = getUserOperationHash({
      chainId: chain.id,
      entryPointAddress: entryPoint,
      entryPointVersion: "0.8",
      userOperation: { ...prepared, signature: "0x" },
    });
    const signature = await privateKeyToAccount(generatePrivateKey()).sign({ hash }); // not the owner's key
    const op = formatUserOperationRequest({ ...prepared, signature });
    const { body } = await rpc({ jsonrpc: "2.0", id: 7, method: "eth_sendUserOperation", params: [op, entryPoint] });
    expect(body.error.code).toBe(-32507);
    expect(body.error.data.dapiError.id).toBe("SVC-16017");
    expect(
      (await rpc({ jsonrpc: "2.0", id: 8, method: "eth_getUserOperationByHash", params: [hash] })).body.result,
    ).toBeNull();
    expect(
      (await rpc({ jsonrpc: "2.0", id: 9, method: "debug_bundler_dumpMempool", params: [entryPoint] })).body.result,
    ).toEqual([]);
    expect(await client.getCode({ address: account.address })).toBeUndefined(); // never deployed
  });

  it("enforces ERC-7562: a banned opcode in validation is -32502, an unstaked paymaster's postOp context -32505", async () => {
    // An account whose validateUserOp reads NUMBER, then answers validationData 0 (valid); its deposit pays.
    const numberAccount: Address = "0x00000000000000000000000000000000000a7562";
    await client.request({
      method: "anvil_setCode" as never,
      params: [numberAccount, "0x4350600060005260206000f3"] as never,
    });
    // An account that always validates, and a paymaster that returns a context ("0x01") and validationData 0.
    const plainAccount: Address = "0x00000000000000000000000000000000000b7562";
    await client.request({
      method: "anvil_setCode" as never,
      params: [plainAccount, "0x600060005260206000f3"] as never,
    });
    const contextPaymaster: Address = "0x00000000000000000000000000000000000c7562";
    const returnsContext = `0x604060005260006020526001604052${"7f01".padEnd(66, "0")}60605260806000f3` as Hex;
    await client.request({ method: "anvil_setCode" as never, params: [contextPaymaster, returnsContext] as never });
    await deposit(numberAccount);
    await deposit(contextPaymaster);
    const banned = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_sendUserOperation",
      params: [operation(numberAccount), entryPoint],
    });
    expect(banned.body.error).toMatchObject({ code: -32502, data: { opcode: "NUMBER", address: numberAccount } });
    const unstaked = await rpc({
      jsonrpc: "2.0",
      id: 2,
      method: "eth_sendUserOperation",
      params: [operation(plainAccount, contextPaymaster), entryPoint],
    });
    expect(unstaked.body.error).toMatchObject({
      code: -32505,
      data: { paymasterContext: "0x01" },
    });
    // An EIP-7702 sender runs its delegate's code, also when the delegation is only its operation's authorisation.
    const eoa = privateKeyToAccount(generatePrivateKey());
    await deposit(eoa.address);
    const authorization = await eoa.signAuthorization({ address: numberAccount, chainId: chain.id, nonce: 0 });
    const { eip7702Auth } = formatUserOperationRequest({ authorization });
    const delegated = await rpc({
      jsonrpc: "2.0",
      id: 3,
      method: "eth_sendUserOperation",
      params: [{ ...operation(eoa.address), preVerificationGas: "0x20000", eip7702Auth }, entryPoint],
    });
    expect(delegated.body.error).toMatchObject({ code: -32502, data: { opcode: "NUMBER" } });
  });

  it("reads an EIP-7702 sender's delegate again at each validation: a new delegate's banned opcode is -32502", async () => {
    const plainAccount: Address = "0x00000000000000000000000000000000000a7702"; // always validates
    const numberAccount: Address = "0x00000000000000000000000000000000000b7702"; // reads NUMBER, then validates
    const contextPaymaster: Address = "0x00000000000000000000000000000000000c7702"; // returns a context: -32505
    const eoa: Address = "0x00000000000000000000000000000000000d7702";
    await setCode(plainAccount, "0x600060005260206000f3");
    await setCode(numberAccount, "0x4350600060005260206000f3");
    await setCode(contextPaymaster, `0x604060005260006020526001604052${"7f01".padEnd(66, "0")}60605260806000f3`);
    await deposit(contextPaymaster);
    await deposit(eoa);
    const send = async (id: number, op: ReturnType<typeof operation>) =>
      (await rpc({ jsonrpc: "2.0", id, method: "eth_sendUserOperation", params: [op, entryPoint] })).body.error;
    // Delegated to the plain account: its validation is traced and its code read (then refused for the paymaster).
    await setCode(eoa, `0xef0100${plainAccount.slice(2)}`);
    expect(await send(1, operation(eoa, contextPaymaster))).toMatchObject({ code: -32505 });
    // Delegated again (a new authorisation on chain): the new delegate's code is what the rules read.
    await setCode(eoa, `0xef0100${numberAccount.slice(2)}`);
    expect(await send(2, operation(eoa))).toMatchObject({ code: -32502, data: { opcode: "NUMBER" } });
  });

  it("keeps ERC-7562 reputation: counts a paymaster's operations seen and included, refuses it banned (-32504)", async () => {
    // A paymaster that sponsors anything (empty context, validationData 0), an account that always validates.
    const paymaster: Address = "0x0000000000000000000000000000000000f07562";
    const account: Address = "0x0000000000000000000000000000000000f17562";
    await setCode(paymaster, "0x604060005260606000f3");
    await setCode(account, "0x600060005260206000f3");
    await deposit(paymaster);
    const { maxFeePerGas } = await client.estimateFeesPerGas();
    const send = (nonce: number) =>
      rpc({
        jsonrpc: "2.0",
        id: nonce,
        method: "eth_sendUserOperation",
        params: [
          {
            sender: account,
            nonce: toHex(nonce),
            callData: "0x",
            callGasLimit: "0x5000",
            verificationGasLimit: "0x20000",
            preVerificationGas: "0x10000",
            maxFeePerGas: toHex(maxFeePerGas * 2n),
            maxPriorityFeePerGas: toHex(maxFeePerGas),
            signature: "0x",
            paymaster,
            paymasterVerificationGasLimit: "0x20000",
            paymasterPostOpGasLimit: "0x0",
            paymasterData: "0x",
          },
          entryPoint,
        ],
      });
    const debug = async (method: string, params: unknown[]) =>
      (await rpc({ jsonrpc: "2.0", id: 1, method, params })).body.result;
    const reputation = async () =>
      ((await debug("debug_bundler_dumpReputation", [entryPoint])) as { address: string }[]).find(
        (entry) => entry.address === getAddress(paymaster),
      );
    const bundler = createBundlerClient({ client, transport: transport(), pollingInterval: 200 });
    const mined = async (nonce: number) => {
      const hash = (await send(nonce)).body.result as Hex;
      expect((await bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 })).success).toBe(true);
      // Counted included by the bundle's completion (the receipt can be read from the chain a moment before).
      await expect
        .poll(reputation, { timeout: 10_000, interval: 100 })
        .toEqual({ address: getAddress(paymaster), opsSeen: "0x1", opsIncluded: "0x1", status: "ok" });
    };
    await mined(0);

    expect(
      await debug("debug_bundler_setReputation", [
        [{ address: paymaster, opsSeen: "0x3e8", opsIncluded: "0x0" }],
        entryPoint,
      ]),
    ).toBe("ok");
    expect(await reputation()).toMatchObject({ opsSeen: "0x3e8", opsIncluded: "0x0", status: "banned" });
    expect((await send(1)).body.error).toMatchObject({
      code: -32504,
      data: { entity: "paymaster", status: "banned", dapiError: { id: "SVC-16030" } },
    });
    expect(await debug("debug_bundler_getStakeStatus", [paymaster, entryPoint])).toEqual({
      stakeInfo: { addr: getAddress(paymaster), stake: "0x0", unstakeDelaySec: "0x0" },
      isStaked: false,
    });

    expect(await debug("debug_bundler_clearReputation", [])).toBe("ok");
    expect(await debug("debug_bundler_dumpReputation", [entryPoint])).toEqual([]);
    await mined(1); // accepted again, counted from zero
  });

  it("enforces ERC-7562's storage rules (-32502 naming the rule), allows associated storage; unsafe skips them", async () => {
    // A store whose function reads the slot its calldata names; validation code below reaches it by STATICCALL.
    const store: Address = "0x0000000000000000000000000000000000057562";
    await setCode(store, "0x5f35545f5260205ff3");
    const slotOfSelf = "305f5260405f205f52"; // mem[0] = keccak(address(this) || 0): a slot associated with itself
    const slotOne = "60015f52"; // mem[0] = 1: a slot associated with no one
    const readStore = `60205f60205f73${store.slice(2)}5afa50`; // STATICCALL(gas, store, 0, 32, 0, 32)
    const accountReturn = "5f5f5260205ff3"; // validationData 0
    const paymasterReturn = "60405f525f6020525f60405260605ff3"; // (context "", validationData 0)
    const entity = async (address: Address, code: string) => {
      await setCode(address, `0x${code}`);
      await deposit(address);
      return address;
    };
    const associated = await entity(
      "0x00000000000000000000000000000000000e7562",
      slotOfSelf + readStore + accountReturn,
    );
    const stranger = await entity("0x00000000000000000000000000000000000f7562", slotOne + readStore + accountReturn);
    const ownStorage = await entity("0x0000000000000000000000000000000000027562", `5f5450${paymasterReturn}`);
    const ownAssociated = await entity(
      "0x0000000000000000000000000000000000037562",
      slotOfSelf + readStore + paymasterReturn,
    );
    const reader = await entity("0x0000000000000000000000000000000000047562", slotOne + readStore + paymasterReturn);
    const sponsored: Address = "0x0000000000000000000000000000000000017562"; // validates, pays nothing
    await setCode(sponsored, "0x600060005260206000f3");
    const send = async (op: object) =>
      (await rpc({ jsonrpc: "2.0", id: 1, method: "eth_sendUserOperation", params: [op, entryPoint] })).body;
    const refusals: [object, string, Address][] = [
      [operation(stranger), "STO-021", store], // the account reads a slot not associated with it
      [operation(sponsored, ownStorage), "STO-031", ownStorage], // an unstaked paymaster's own storage
      [operation(sponsored, ownAssociated), "STO-032", store], // … storage associated with it
      [operation(sponsored, reader), "STO-033", store], // … any other storage
    ];
    for (const [op, rule, address] of refusals) {
      const body = await send(op);
      expect(body.error, JSON.stringify(body)).toMatchObject({
        code: -32502,
        data: { rule, address: address.toLowerCase() },
      });
      expect(body.error.message).toContain(`[${rule}]`);
    }
    // ERC-7562's call rules: the account calls the EntryPoint other than by its fallback or depositTo (OP-054),
    // sends value elsewhere (OP-061), calls a low address that is no precompile reading nothing (OP-062) or an address
    // without code (OP-041), or lets a call run out of gas (OP-020).
    const callsEntryPoint = `6335567e1a60e01b5f52${"5f5f60045f5f73"}${entryPoint.slice(2)}5af150`; // getNonce's selector
    const sendsValue = `5f5f5f5f600173${store.slice(2)}5af150`; // CALL(gas, store, 1 wei, …)
    const callsPrecompile = "5f5f5f5f60ff5afa50"; // STATICCALL(gas, 0xff, …): no precompile that reads nothing
    const callsNoCode = "5f5f5f5f7300000000000000000000000000000000009a75625afa50"; // STATICCALL of a codeless address
    const sizesNoCode = "7300000000000000000000000000000000009a75623b50"; // EXTCODESIZE of a codeless address
    const loop: Address = "0x00000000000000000000000000000000000c0de1";
    await setCode(loop, "0x5b600056"); // JUMPDEST PUSH1 0 JUMP: runs until its gas is gone
    const exhausts = `5f5f5f5f5f73${loop.slice(2)}6064f150`; // CALL(100 gas, loop, …), its failure ignored
    const valueSender = await entity("0x0000000000000000000000000000000000067562", sendsValue + accountReturn);
    await client.request({ method: "anvil_setBalance" as never, params: [valueSender, "0xde0b6b3a7640000"] as never });
    const callRules: [Address, string][] = [
      [await entity("0x0000000000000000000000000000000000057563", callsEntryPoint + accountReturn), "OP-054"],
      [valueSender, "OP-061"],
      [await entity("0x0000000000000000000000000000000000077562", callsPrecompile + accountReturn), "OP-062"],
      [await entity("0x0000000000000000000000000000000000087562", callsNoCode + accountReturn), "OP-041"],
      [await entity("0x0000000000000000000000000000000000107562", sizesNoCode + accountReturn), "OP-041"],
      [await entity("0x0000000000000000000000000000000000097562", exhausts + accountReturn), "OP-020"],
    ];
    for (const [sender, rule] of callRules) {
      const body = await send(operation(sender));
      expect(body.error, JSON.stringify(body)).toMatchObject({
        code: -32502,
        data: { rule, from: sender.toLowerCase() },
      });
      expect(body.error.message).toContain(`[${rule}]`);
    }
    // EXTCODE* of an address without code in a paymaster's validation too (EXTCODECOPY; its read of its own storage
    // makes the storage trace report it); of one with code, of the sender, or of a precompile OP-062 allows, it is
    // allowed.
    const copiesNoCode = `5f5f5f73${"00".repeat(17)}9a75623c`;
    const copier = await entity(
      "0x0000000000000000000000000000000000117562",
      `5f5450${copiesNoCode}${paymasterReturn}`,
    );
    const copied = await send(operation(sponsored, copier));
    expect(copied.error, JSON.stringify(copied)).toMatchObject({
      code: -32502,
      data: { rule: "OP-041", opcode: "EXTCODECOPY", from: copier, to: "0x00000000000000000000000000000000009a7562" },
    });
    expect(copied.error.message).toMatch(/^\[OP-041\]/);
    // EXTCODEHASH(store), EXTCODESIZE(itself: the sender), EXTCODESIZE(0x01: ecrecover), EXTCODEHASH(0x100: P256VERIFY)
    const hashesCode = `73${store.slice(2)}3f50303b5060013b506101003f50`;
    const reads = await send(
      operation(await entity("0x0000000000000000000000000000000000127562", hashesCode + accountReturn)),
    );
    expect(reads.result, JSON.stringify(reads)).toMatch(/^0x[0-9a-f]{64}$/);
    // The account's associated storage in another contract (its existing account: STO-021 allows it).
    const accepted = await send(operation(associated));
    expect(accepted.result).toMatch(/^0x[0-9a-f]{64}$/);
    // Unsafe mode (a plain eth_call) lets the same refused operation through: the mode alone decides.
    const on = createServedChains([
      {
        chainId: chain.id,
        rpcUrl: chain.rpcUrls.default.http[0]!,
        systemFactory: stack.platform.manifest.systemFactory as Address,
      },
    ]).primary;
    const refused = packed(toUserOperation(operation(stranger) as RpcUserOperation));
    // Both ways of running the simulations judge it alike: by delegation (the API's way above) and with their code
    // as a state override (a chain without the platform's simulations).
    const simulations = stack.platform.manifest.entryPointSimulations as Address;
    for (const served of [
      { address: entryPoint, version: "0.8" as const, simulations },
      { address: entryPoint, version: "0.8" as const },
    ]) {
      await expect(
        simulateValidation(on, validationCaches(), served, refused, false, [], "unsafe"),
      ).resolves.toBeTruthy();
      await expect(simulateValidation(on, validationCaches(), served, refused, false, [], "safe")).rejects.toThrow(
        "[STO-021]",
      );
    }
    // Mined before the next tests bundle by hand.
    await expect
      .poll(
        async () =>
          (await rpc({ jsonrpc: "2.0", id: 2, method: "eth_getUserOperationReceipt", params: [accepted.result] })).body
            .result,
        { timeout: 30_000, interval: 100 },
      )
      .not.toBeNull();
  });

  it("follows JSON-RPC: notifications, unknown methods, batches, parse and param errors", async () => {
    expect((await rpc({ jsonrpc: "2.0", method: "eth_chainId" })).status).toBe(204);
    expect((await rpc({ jsonrpc: "2.0", method: "no_suchMethod", params: [] })).status).toBe(204);
    const unknown = await rpc({ jsonrpc: "2.0", id: 3, method: "no_suchMethod", params: [] });
    expect(unknown.body).toMatchObject({ jsonrpc: "2.0", id: 3, error: { code: -32601 } });
    expect((await rpc("{not json")).body).toMatchObject({ id: null, error: { code: -32700 } });
    expect((await rpc({ id: 4, method: 5 })).body).toMatchObject({ id: 4, error: { code: -32600 } });
    const badParams = await rpc({ jsonrpc: "2.0", id: 5, method: "eth_getUserOperationByHash", params: ["0x12"] });
    expect(badParams.body).toMatchObject({ id: 5, error: { code: -32602 } });
    const otherEntryPoint = await rpc({
      jsonrpc: "2.0",
      id: 6,
      method: "debug_bundler_dumpMempool",
      params: ["0x0000000000000000000000000000000000000001"],
    });
    expect(otherEntryPoint.body.error.code).toBe(-32602);

    const batch = await rpc([
      { jsonrpc: "2.0", id: 1, method: "eth_chainId" },
      { jsonrpc: "2.0", method: "eth_chainId" },
      { jsonrpc: "2.0", id: 2, method: "eth_supportedEntryPoints", params: [] },
      { jsonrpc: "2.0", id: 3, method: "nope" },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.body.map((a: { id: number }) => a.id)).toEqual([1, 2, 3]);
    expect(batch.body[1].result).toEqual([entryPoint, entryPointV07]);
    expect(batch.body[2].error.code).toBe(-32601);
    expect(
      (
        await rpc([
          { jsonrpc: "2.0", method: "eth_chainId" },
          { jsonrpc: "2.0", method: "x" },
        ])
      ).status,
    ).toBe(204);
    const noKey = await stack.api("/api/v2/bundler", { method: "POST", key: null, body: "{}" });
    expect(noKey.status).toBe(401);
  });

  it("permissionless sends a UserOperation and reads it back", async () => {
    const account = await simpleAccount();
    const smart = createSmartAccountClient({
      account,
      chain,
      client,
      bundlerTransport: transport(),
      pollingInterval: 200, // not the 4 s default: the receipt is polled for
    });
    const hash = await smart.sendUserOperation({ calls: [{ to: RECIPIENT, value: 7n }] });
    const receipt = await smart.waitForUserOperationReceipt({ hash, timeout: 30_000 });
    expect(receipt.success).toBe(true);
    const read = await smart.getUserOperation({ hash });
    expect(read.transactionHash).toBe(receipt.receipt.transactionHash);
    expect((await smart.getUserOperationReceipt({ hash })).userOpHash).toBe(hash);
  });

  it("v0.7: viem's bundler client and permissionless send a SimpleAccount's operations, hashed by v0.7's rule", async () => {
    const account = await simpleAccount("0.7");
    const bundler = createBundlerClient({ account, client, transport: transport(), pollingInterval: 200 });
    const first = await bundler.sendUserOperation({ calls: [{ to: RECIPIENT, value: 3n }] });
    const receipt = await bundler.waitForUserOperationReceipt({ hash: first, timeout: 30_000 });
    expect(receipt).toMatchObject({ success: true, userOpHash: first, entryPoint: entryPointV07 });
    v07Operation = first;
    expect(receipt.receipt.to?.toLowerCase()).toBe(entryPointV07.toLowerCase());
    const read = await bundler.getUserOperation({ hash: first });
    expect(read).toMatchObject({ entryPoint: entryPointV07, transactionHash: receipt.receipt.transactionHash });
    // The hash the bundler answered is v0.7's (the EntryPoint's own getUserOpHash), not v0.8's typed hash.
    const packed = toPackedUserOperation(read.userOperation);
    expect(
      await client.readContract({
        address: entryPointV07,
        abi: entryPoint07Abi,
        functionName: "getUserOpHash",
        args: [packed],
      }),
    ).toBe(first);

    const smart = createSmartAccountClient({
      account,
      chain,
      client,
      bundlerTransport: transport(),
      pollingInterval: 200,
    });
    const second = await smart.sendUserOperation({ calls: [{ to: RECIPIENT, value: 4n }] });
    expect((await smart.waitForUserOperationReceipt({ hash: second, timeout: 30_000 })).success).toBe(true);
    expect((await smart.getUserOperationReceipt({ hash: second })).entryPoint).toBe(entryPointV07);
  });

  it("estimates on the caller's state override (eth_call's format)", async () => {
    const sender: Address = "0x00000000000000000000000000000000000d7562"; // no code on the chain
    const op = {
      sender,
      nonce: "0x0",
      callData: "0x",
      signature: "0x",
      maxFeePerGas: "0x3b9aca00",
      maxPriorityFeePerGas: "0x3b9aca00",
    };
    const estimate = (params: unknown[]) =>
      rpc({ jsonrpc: "2.0", id: 1, method: "eth_estimateUserOperationGas", params });
    // Its deposit pays the prefund (the code below pays nothing itself).
    const funder = createWalletClient({ account: anvilAccount(9), chain, transport: http() });
    for (const at of [entryPointV07, entryPoint])
      await client.waitForTransactionReceipt({
        hash: await funder.writeContract({
          address: at,
          abi: entryPoint07Abi,
          functionName: "depositTo",
          args: [sender],
          value: parseEther("1"),
        }),
      });
    expect((await estimate([op, entryPointV07])).body.error.message).toContain("AA20"); // account not deployed
    // With code that validates anything (validateUserOp answers 0) the same operation is estimated, on both.
    const override = { [sender]: { code: "0x600060005260206000f3" } };
    for (const at of [entryPointV07, entryPoint])
      expect((await estimate([op, at, override])).body).toMatchObject({ result: { callGasLimit: expect.any(String) } });
  });

  it("finds an operation another bundler mined, within BUNDLER_RECEIPT_LOOKBACK_BLOCKS only", async () => {
    const account = await simpleAccount("0.7");
    const bundler = createBundlerClient({ account, client, transport: transport() });
    const prepared = await bundler.prepareUserOperation({ calls: [{ to: RECIPIENT, value: 5n }] });
    const op = { ...prepared, signature: await account.signUserOperation(prepared) };
    const hash = getUserOperationHash({
      chainId: chain.id,
      entryPointAddress: entryPointV07,
      entryPointVersion: "0.7",
      userOperation: op,
    });
    // handleOps sent by an account of its own, never through the platform's mempool.
    const other = createWalletClient({ account: anvilAccount(9), chain, transport: http() });
    const mined = await client.waitForTransactionReceipt({
      hash: await other.writeContract({
        address: entryPointV07,
        abi: entryPoint07Abi,
        functionName: "handleOps",
        args: [[toPackedUserOperation(op)], other.account.address],
      }),
    });
    const lookup = async (method: string) => (await rpc({ jsonrpc: "2.0", id: 1, method, params: [hash] })).body.result;
    expect(await lookup("eth_getUserOperationReceipt")).toMatchObject({
      userOpHash: hash,
      success: true,
      entryPoint: entryPointV07,
      receipt: { transactionHash: mined.transactionHash },
    });
    expect(await lookup("eth_getUserOperationByHash")).toMatchObject({
      entryPoint: entryPointV07,
      transactionHash: mined.transactionHash,
      userOperation: { sender: account.address, callData: op.callData, signature: op.signature },
    });
    await client.request({ method: "anvil_mine" as never, params: [`0x${LOOKBACK_BLOCKS.toString(16)}`] as never });
    expect(await lookup("eth_getUserOperationReceipt")).toBeNull();
    expect(await lookup("eth_getUserOperationByHash")).toBeNull();
  });

  it("holds a sender's next operations behind its first and bundles them in nonce order; a nonce gap is refused", async () => {
    const { account, bundler } = await deployedInManualMode();
    // Key 0 (viem's account chose another key for the first): sequence numbers 0, 1, then a gap at 3.
    const prepared = await bundler.prepareUserOperation({ calls: [{ to: RECIPIENT, value: 1n }], nonce: 0n });
    const signed = async (nonce: bigint) => {
      const op = { ...prepared, nonce };
      const hash = getUserOperationHash({
        chainId: chain.id,
        entryPointAddress: entryPoint,
        entryPointVersion: "0.8",
        userOperation: op,
      });
      return { hash, op: await signedRequest(account, op) };
    };
    const [one, two, gap] = await Promise.all([signed(0n), signed(1n), signed(3n)]);
    // Nonce 1 is accepted while nonce 0 waits (validated as if 0 had run), and nonce 2 estimated the same way.
    for (const { op, hash } of [one, two])
      expect(
        (await rpc({ jsonrpc: "2.0", id: 2, method: "eth_sendUserOperation", params: [op, entryPoint] })).body,
      ).toEqual({ jsonrpc: "2.0", id: 2, result: hash });
    // Sent again: the same operation, answered with its hash and kept once.
    expect(
      (await rpc({ jsonrpc: "2.0", id: 2, method: "eth_sendUserOperation", params: [one.op, entryPoint] })).body,
    ).toEqual({ jsonrpc: "2.0", id: 2, result: one.hash });
    const estimate = await rpc({
      jsonrpc: "2.0",
      id: 3,
      method: "eth_estimateUserOperationGas",
      params: [{ ...two.op, nonce: "0x2" }, entryPoint],
    });
    expect(estimate.body.result?.callGasLimit).toMatch(/^0x/);
    // Nonce 3 has no predecessor waiting (2 was never sent): the EntryPoint refuses it (AA25).
    const refused = await rpc({ jsonrpc: "2.0", id: 4, method: "eth_sendUserOperation", params: [gap.op, entryPoint] });
    expect(refused.body.error.code).toBe(-32500);
    expect(refused.body.error.message).toContain("AA25");

    const sent = await rpc({ jsonrpc: "2.0", id: 5, method: "debug_bundler_sendBundleNow", params: [] });
    const bundle = await bundleMined(sent.body.result as Hex);
    expect(bundle.status).toBe("success");
    for (const { hash } of [one, two]) {
      const receipt = await rpc({ jsonrpc: "2.0", id: 6, method: "eth_getUserOperationReceipt", params: [hash] });
      expect(receipt.body.result).toMatchObject({
        success: true,
        receipt: { transactionHash: bundle.transactionHash },
      });
    }
    expect(
      await client.readContract({
        address: entryPoint,
        abi: entryPoint08Abi,
        functionName: "getNonce",
        args: [account.address, 0n],
      }),
    ).toBe(2n);
    await rpc({ jsonrpc: "2.0", id: 7, method: "debug_bundler_setBundlingMode", params: ["auto"] });
  });

  it("accepts a burst from two senders at once up to each sender's room, each operation once", async () => {
    const senders = [await simpleAccount(), await simpleAccount()]; // one funder: its transactions in turn
    const bundlers = senders.map((account) => createBundlerClient({ account, client, transport: transport() }));
    // Deployed first: a deploying operation takes the full acceptance, the burst the one-statement write.
    for (const bundler of bundlers)
      await bundler.waitForUserOperationReceipt({
        hash: await bundler.sendUserOperation({ calls: [{ to: RECIPIENT, value: 1n }] }),
        timeout: 30_000,
      });
    await bundlingManual();
    try {
      // Six operations a sender, each on a nonce key of its own, all sent at once: four wait, two are refused.
      const signed = await Promise.all(
        bundlers.flatMap((bundler, s) =>
          Array.from({ length: 6 }, async (_, i) => {
            const prepared = await bundler.prepareUserOperation({
              calls: [{ to: RECIPIENT, value: 1n }],
              nonce: BigInt(100 + i) << 64n,
            });
            const signature = await senders[s]!.signUserOperation(prepared);
            return { sender: s, op: formatUserOperationRequest({ ...prepared, signature }) };
          }),
        ),
      );
      const burst = await Promise.all(
        signed.map(async ({ sender, op }, i) => ({
          sender,
          body: (await rpc({ jsonrpc: "2.0", id: i, method: "eth_sendUserOperation", params: [op, entryPoint] })).body,
        })),
      );
      for (const s of [0, 1]) {
        const mine = burst.filter((r) => r.sender === s);
        expect(mine.filter((r) => typeof r.body.result === "string")).toHaveLength(4);
        expect(mine.filter((r) => r.body.error?.code === -32504)).toHaveLength(2);
      }
      await rpc({ jsonrpc: "2.0", id: 2, method: "debug_bundler_sendBundleNow", params: [] });
      // The eight accepted are mined (over the executors' bundles), each once: its own receipt, a distinct nonce.
      const receipts = await Promise.all(
        burst
          .filter((r) => typeof r.body.result === "string")
          .map((r) => bundlers[r.sender]!.waitForUserOperationReceipt({ hash: r.body.result, timeout: 30_000 })),
      );
      expect(receipts.every((receipt) => receipt.success)).toBe(true);
      expect(new Set(receipts.map((receipt) => `${receipt.sender}:${receipt.nonce}`)).size).toBe(8);
    } finally {
      await rpc({ jsonrpc: "2.0", id: 4, method: "debug_bundler_setBundlingMode", params: ["auto"] });
    }
  });

  /** A quick insert's row on a chain no bundling run takes (999999), with its own hash per sender and nonce. */
  const UNSERVED = 999_999;
  const unservedRow = (nonce: number, sender = 0xa11cen): NewOperation => ({
    userOpHash: toHex((sender << 64n) + BigInt(nonce) + 0x7e57n, { size: 32 }),
    chainId: UNSERVED,
    entryPoint: entryPoint.toLowerCase(),
    sender: toHex(sender, { size: 20 }),
    nonce: String(nonce),
    organizationId: stack.platform.credentials.organizationId,
    userOperation: "{}",
    packedOperation: "{}",
    maxFeePerGas: "1",
    maxPriorityFeePerGas: "1",
  });

  it("writes an operation accepted at once when its validation passed while its write waited for a connection", async () => {
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    const operations = bundlerDb(db.platform);
    const unserved = UNSERVED;
    const row = (nonce: number) => unservedRow(nonce);
    const visitedCode = { [RECIPIENT.toLowerCase()]: toHex(1n, { size: 32 }) };
    let passed = false;
    const soFar = () => (passed ? { accepted: true as const, visitedCode } : { accepted: false as const });
    try {
      const held = await db.pool.connect(); // the pool's only connection
      const waiting = insertUnlessContended(operations, db.pool, row(0), 4, soFar);
      await new Promise((resolve) => setTimeout(resolve, 200));
      passed = true; // the validation passes while the write waits
      held.release();
      expect(await waiting).toEqual({ inserted: true, accepting: false });
      passed = false; // one whose validation still runs when the write has its connection
      expect(await insertUnlessContended(operations, db.pool, row(1), 4, soFar)).toEqual({
        inserted: true,
        accepting: true,
      });
      const rows = await operations
        .selectFrom("bundlerUserOperations")
        .select(["nonce", "accepting", "validationCodeHashes"])
        .where("chainId", "=", unserved)
        .orderBy("nonce")
        .execute();
      expect(rows).toEqual([
        { nonce: 0n, accepting: false, validationCodeHashes: visitedCode },
        { nonce: 1n, accepting: true, validationCodeHashes: null },
      ]);
    } finally {
      await operations.deleteFrom("bundlerUserOperations").where("chainId", "=", unserved).execute();
      await db.close();
    }
  });

  /** How long a bundling run at `pace` waits on the unserved chain's rows, through its own connection. */
  const pacedWait = (pace: BundlePace) => {
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    const operations = bundlerDb(db.platform);
    const scope = { chainId: UNSERVED, organizationId: stack.platform.credentials.organizationId };
    const waited = async () => {
      const start = Date.now();
      await untilWorthBundling(operations, scope, pace);
      return Date.now() - start;
    };
    return { db, operations, waited };
  };

  it("paces a bundling run by the operations accepted, each from its acceptance, not by those still accepting", async () => {
    const { db, operations, waited } = pacedWait({ targetSize: 2, maxWaitMs: 400, fillWaitMs: 400 });
    const aSecondAgo = () => new Date(Date.now() - 1000);
    try {
      // Two written a second ago: one still accepting, the other accepted (marked) just now.
      const [accepting, marked] = [unservedRow(0, 0xc0de1n), unservedRow(0, 0xc0de2n)];
      for (const row of [accepting, marked])
        await insertUnlessContended(operations, db.pool, row, 4, () => ({ accepted: false }));
      await operations
        .updateTable("bundlerUserOperations")
        .set({ createdAt: aSecondAgo(), updatedAt: aSecondAgo() })
        .where("chainId", "=", UNSERVED)
        .execute();
      await markAccepted(operations, db.pool, marked.userOpHash);
      // One ready of the two the bundle wants, ready for no time: the run waits (counting both, it sent at once).
      expect(await waited()).toBeGreaterThanOrEqual(300);
      // Accepted a second ago: past the wait, it is sent at once.
      await operations
        .updateTable("bundlerUserOperations")
        .set({ updatedAt: aSecondAgo() })
        .where("userOpHash", "=", marked.userOpHash)
        .execute();
      expect(await waited()).toBeLessThan(300);
    } finally {
      await operations.deleteFrom("bundlerUserOperations").where("chainId", "=", UNSERVED).execute();
      await db.close();
    }
  });

  it("lets a bundle fill past the short wait while operations arrive fast enough to fill it, not a trickle", async () => {
    const { db, operations, waited } = pacedWait({ targetSize: 8, maxWaitMs: 100, fillWaitMs: 700 });
    const accepted = (senders: bigint[]) =>
      operations
        .insertInto("bundlerUserOperations")
        .values(senders.map((sender) => ({ ...unservedRow(0, sender), status: "pending" as const })))
        .execute();
    try {
      // One operation in the short wait: eight would take it 5.6 s to come; it goes after the short wait.
      await accepted([0xf101n]);
      expect(await waited()).toBeLessThan(400);
      await operations.deleteFrom("bundlerUserOperations").where("chainId", "=", UNSERVED).execute();
      // Four at once: eight would be there well within the fill wait. The run waits past the short wait, and sends
      // when the bundle fills (four more, 250 ms later), not at the end of the fill wait.
      await accepted([0xf201n, 0xf202n, 0xf203n, 0xf204n]);
      const more = setTimeout(() => void accepted([0xf205n, 0xf206n, 0xf207n, 0xf208n]), 250);
      const filled = await waited();
      clearTimeout(more);
      expect(filled).toBeGreaterThanOrEqual(200);
      expect(filled).toBeLessThan(600);
    } finally {
      await operations.deleteFrom("bundlerUserOperations").where("chainId", "=", UNSERVED).execute();
      await db.close();
    }
  });

  it("writes the operations that queued for a connection in one statement, each sender's room counted in turn", async () => {
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    const operations = bundlerDb(db.platform);
    const accepted = () => ({ accepted: true as const });
    try {
      const held = await db.pool.connect(); // the pool's only connection
      // Three senders' operations, queued while the connection is held; each sender has room for two.
      const senders = [0xb0b1n, 0xb0b2n, 0xb0b3n];
      const rows = senders.flatMap((sender) => [0, 1, 2].map((nonce) => unservedRow(nonce, sender)));
      const writes = rows.map((row) => insertUnlessContended(operations, db.pool, row, 2, accepted));
      await new Promise((resolve) => setTimeout(resolve, 100));
      held.release();
      const results = await Promise.all(writes);
      // The first two of each sender are written accepted; the third finds no room (the full acceptance refuses it).
      expect(results.map((result) => result.inserted)).toEqual(senders.flatMap(() => [true, true, false]));
      expect(results.every((result) => !result.accepting)).toBe(true);
      // One transaction wrote all six: one commit (one disk flush) instead of nine round trips for one connection.
      const written = await sql<{ xmin: string }>`select xmin::text from platform.bundler_user_operations
        where chain_id = ${UNSERVED}`.execute(db.platform);
      expect(written.rows).toHaveLength(6);
      expect(new Set(written.rows.map((row) => row.xmin)).size).toBe(1);
    } finally {
      await operations.deleteFrom("bundlerUserOperations").where("chainId", "=", UNSERVED).execute();
      await db.close();
    }
  });

  it("links a bundle's operations to its chain write by the bundle's index, not by reading failed history", async () => {
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    const operations = bundlerDb(db.platform);
    const bundleId = uuidv7();
    try {
      // 2,000 operations that failed in bundles of the past (never linked to a chain write), and one of a bundle now.
      await sql`insert into platform.bundler_user_operations (user_op_hash, chain_id, entry_point, sender, nonce,
          organization_id, user_operation, packed_operation, max_fee_per_gas, max_priority_fee_per_gas, status,
          bundle_id)
        select 'history:' || n, ${UNSERVED}, ${entryPoint.toLowerCase()}, '0xfa11ed', n, ${stack.platform.credentials.organizationId},
          '{}', '{}', 1, 1, 'failed', 'old-bundle:' || n
        from generate_series(1, 2000) as n`.execute(db.platform);
      const current = unservedRow(0, 0xb0d1en);
      await insertUnlessContended(operations, db.pool, current, 4, () => ({ accepted: true }));
      await operations
        .updateTable("bundlerUserOperations")
        .set({ status: "submitted", bundleId })
        .where("userOpHash", "=", current.userOpHash)
        .execute();
      await sql`analyze platform.bundler_user_operations`.execute(db.platform);
      const query = linkBundleQuery(operations, bundleId, uuidv7()).compile();
      const plan = await db.pool.query(`explain (format json) ${query.sql}`, [...query.parameters]);
      // By a bundle index (the live bundles' one, now that only operations still in the bundle are linked).
      expect(JSON.stringify(plan.rows[0])).toMatch(/"Index Name":"bundler_user_operations_(bundle|live_bundles)"/);
    } finally {
      await operations.deleteFrom("bundlerUserOperations").where("chainId", "=", UNSERVED).execute();
      await db.close();
    }
  });

  it("writes combined operations without waiting for rows a bundle's update holds (no deadlock with it)", async () => {
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    const other = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    const operations = bundlerDb(db.platform);
    const accepted = () => ({ accepted: true as const });
    const deadlocks = async () =>
      Number(
        (
          await sql<{ deadlocks: string }>`select deadlocks::text from pg_stat_database
            where datname = current_database()`.execute(db.platform)
        ).rows[0]?.deadlocks,
      );
    const [a, b] = [0xa0a0n, 0xb0b0n];
    try {
      // Each sender has a live operation; a bundle's update (a claim, an inclusion) takes B's row, then A's.
      for (const sender of [a, b])
        await insertUnlessContended(operations, db.pool, unservedRow(0, sender), 4, accepted);
      const before = await deadlocks();
      const bundle = await other.pool.connect();
      await bundle.query("begin");
      await bundle.query("update platform.bundler_user_operations set updated_at = now() where user_op_hash = $1", [
        unservedRow(0, b).userOpHash,
      ]);
      // Both senders' next operations in one statement (A's first), while the bundle holds B's row.
      const held = await db.pool.connect();
      const writes = [a, b].map((sender) =>
        insertUnlessContended(operations, db.pool, unservedRow(1, sender), 4, accepted),
      );
      held.release();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await bundle.query("update platform.bundler_user_operations set updated_at = now() where user_op_hash = $1", [
        unservedRow(0, a).userOpHash,
      ]);
      await bundle.query("commit");
      bundle.release();
      expect((await Promise.all(writes)).map((write) => write.inserted)).toEqual([true, true]);
      expect(await deadlocks()).toBe(before);
    } finally {
      await operations.deleteFrom("bundlerUserOperations").where("chainId", "=", UNSERVED).execute();
      await Promise.all([db.close(), other.close()]);
    }
  });

  it("refuses a sender's operation beyond its room without waiting for the rows a bundle's update holds", async () => {
    // Its next operations take the one-statement write while it has room, the fifth the full acceptance.
    const { account, bundler } = await deployedInManualMode();
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    const bundle = await db.pool.connect();
    try {
      const signed = await Promise.all(
        Array.from({ length: 5 }, async (_, i) =>
          signedRequest(
            account,
            await bundler.prepareUserOperation({
              calls: [{ to: RECIPIENT, value: 1n }],
              nonce: BigInt(200 + i) << 64n,
            }),
          ),
        ),
      );
      for (const op of signed.slice(0, 4)) expect((await sendOperation(op)).result).toMatch(/^0x/);
      // A bundle's update (a claim, an inclusion: many senders' rows in its own order) holds the four waiting rows.
      await bundle.query("begin");
      await bundle.query(
        "update platform.bundler_user_operations set updated_at = now() where sender = $1 and status = 'pending'",
        [account.address.toLowerCase()],
      );
      const answer = await Promise.race([
        sendOperation(signed[4]!),
        new Promise((resolve) => setTimeout(() => resolve("still waiting for the bundle's rows"), 5_000)),
      ]);
      expect(answer).toMatchObject({ error: { code: -32504 } });
    } finally {
      await bundle.query("rollback");
      bundle.release();
      await db.close();
      await rpc({ jsonrpc: "2.0", id: 3, method: "debug_bundler_setBundlingMode", params: ["auto"] });
    }
  });

  it("replaces a waiting operation only with fees 10 % higher, and not one a bundle claimed meanwhile", async () => {
    const { account, bundler } = await deployedInManualMode();
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 2); // the bundle's connection and the test's reads
    const bundle = await db.pool.connect();
    const operations = bundlerDb(db.platform);
    const statusOf = async (hash: Hex) =>
      operations
        .selectFrom("bundlerUserOperations")
        .select(["status", "failureReason"])
        .where("userOpHash", "=", hash.toLowerCase())
        .executeTakeFirst();
    try {
      // One operation on each of two nonces (prepared once: fee estimates move from block to block), each then sent
      // again at its fees raised by `percent`.
      const prepared = new Map<bigint, Awaited<ReturnType<typeof bundler.prepareUserOperation>>>();
      const signedAt = async (key: bigint, percent = 0n) => {
        if (!prepared.has(key))
          prepared.set(
            key,
            await bundler.prepareUserOperation({ calls: [{ to: RECIPIENT, value: 1n }], nonce: key << 64n }),
          );
        const base = prepared.get(key)!;
        const raised = (fee: bigint) => (fee * (100n + percent) + 99n) / 100n; // rounded up, as the bundler's minimum
        return signedRequest(account, {
          ...base,
          maxFeePerGas: raised(base.maxFeePerGas),
          maxPriorityFeePerGas: raised(base.maxPriorityFeePerGas),
        });
      };
      const original = (await sendOperation(await signedAt(300n))).result as Hex;
      const underpriced = await sendOperation(await signedAt(300n, 5n));
      expect(underpriced.error).toMatchObject({ code: -32602, data: { replaces: original } });
      const replacement = (await sendOperation(await signedAt(300n, 10n))).result as Hex;
      expect(await statusOf(original)).toEqual({ status: "failed", failureReason: `replaced by ${replacement}` });

      // A bundle claims the next one (pending -> submitted) while its replacement is accepted: the replacement read
      // it waiting, then finds it claimed, and is refused (the claim stands; the nonce is the bundle's).
      const claimed = (await sendOperation(await signedAt(301n))).result as Hex;
      await bundle.query("begin");
      await bundle.query("update platform.bundler_user_operations set status = 'submitted' where user_op_hash = $1", [
        claimed.toLowerCase(),
      ]);
      const late = sendOperation(await signedAt(301n, 20n));
      const bundlePid = (await bundle.query("select pg_backend_pid() as pid")).rows[0].pid as number;
      // Until the replacement waits for the claimed row.
      await vi.waitFor(
        async () => {
          const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where ${bundlePid}::int = any(pg_blocking_pids(pid))`.execute(db.platform);
          expect(waiting.rows[0]?.n).toBe(1);
        },
        { timeout: 10_000, interval: 50 },
      );
      await bundle.query("commit");
      expect((await late).error).toMatchObject({
        code: -32602,
        message: expect.stringContaining("already in a bundle"),
      });
      expect((await statusOf(claimed))?.status).toBe("submitted");
    } finally {
      await bundle.query("rollback").catch(() => undefined);
      bundle.release();
      await operations
        .updateTable("bundlerUserOperations")
        .set({ status: "failed", failureReason: "test cleanup" })
        .where("sender", "=", account.address.toLowerCase())
        .where("status", "=", "submitted")
        .where("bundleId", "is", null)
        .execute();
      await db.close();
      await rpc({ jsonrpc: "2.0", id: 3, method: "debug_bundler_setBundlingMode", params: ["auto"] });
    }
  });

  it("drops an operation that no longer validates when its bundle is checked, and sends the rest", async () => {
    const [poor, rich] = [await simpleAccount(), await simpleAccount()];
    const hashes = await acceptedInManualMode([poor, rich]);
    // Accepted while it could pay; then its money is gone: the EntryPoint refuses it at the bundle's check (AA21).
    await client.request({ method: "anvil_setBalance" as never, params: [poor.address, "0x0"] as never });
    // The oldest, dropped, gives way: sendBundleNow answers the bundle that carries the rest.
    const sent = await rpc({ jsonrpc: "2.0", id: 2, method: "debug_bundler_sendBundleNow", params: [] });
    expect(sent.body.result, await answerAndRows(sent.body, hashes)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(
      userOperationEvents(await bundleMined(sent.body.result), entryPoint).map((event) => event.userOpHash),
    ).toEqual([hashes[1]]);
    const bundler = createBundlerClient({ account: rich, client, transport: transport(), pollingInterval: 200 });
    const receipt = await bundler.waitForUserOperationReceipt({ hash: hashes[1], timeout: 30_000 });
    expect(receipt.success).toBe(true);
    expect(
      (await rpc({ jsonrpc: "2.0", id: 3, method: "eth_getUserOperationReceipt", params: [hashes[0]] })).body.result,
    ).toBeNull();
    expect(await client.getCode({ address: poor.address })).toBeUndefined(); // its deployment never ran
    // Dropped from the bundle at its check: not pointed at the bundle's chain write, which does not carry it.
    const [dropped] = await operationRows([hashes[0]!]);
    expect(dropped).toMatchObject({ status: "failed", transactionRequestId: null });
    expect(dropped?.failureReason).toContain("AA21");
    await rpc({ jsonrpc: "2.0", id: 4, method: "debug_bundler_setBundlingMode", params: ["auto"] });
  });

  it("bundles nothing in manual mode from a run woken while bundling was auto, or a retried sendBundleNow run", async () => {
    const hashes = await acceptedInManualMode([await simpleAccount(), await simpleAccount()]);
    const organizationId = stack.platform.credentials.organizationId;
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    /** Runs a job of the bundle task, `attempts` already made (held back until then), to its end. */
    const ran = async (job: ReturnType<typeof bundleJob>, attempts: number) => {
      const later = new Date(Date.now() + 3_600_000);
      const { rows } = await sql<{ id: string }>`select ${addKeyedJobSql({ ...job, runAt: later })} as id`.execute(
        db.platform,
      );
      await sql`update graphile_worker._private_jobs set attempts = ${attempts}, run_at = now()
        where id = ${rows[0]?.id}::bigint`.execute(db.platform);
      await vi.waitFor(
        async () => {
          const left = await sql`select 1 from graphile_worker._private_jobs where id = ${rows[0]?.id}::bigint`.execute(
            db.platform,
          );
          expect(left.rows).toHaveLength(0);
        },
        { timeout: 20_000, interval: 100 },
      );
    };
    try {
      // The run an earlier auto-mode wake queued (or one still waiting for its bundle to fill when the mode switched),
      // then a sendBundleNow run retried after its first attempt failed (its caller's wait long over).
      await ran(bundleJob(chain.id, organizationId), 0);
      await ran(bundleJob(chain.id, organizationId, true), 1);
    } finally {
      await db.close();
    }
    // Both still wait in the mempool: the run took neither.
    const pool = await rpc({ jsonrpc: "2.0", id: 2, method: "debug_bundler_dumpMempool", params: [entryPoint] });
    expect(pool.body.result).toHaveLength(2);
    const sent = await rpc({ jsonrpc: "2.0", id: 4, method: "debug_bundler_sendBundleNow", params: [] });
    expect(sent.body.result).toMatch(/^0x[0-9a-f]{64}$/);
    await bundleMined(sent.body.result);
    for (const hash of hashes)
      expect(
        (await rpc({ jsonrpc: "2.0", id: 3, method: "eth_getUserOperationReceipt", params: [hash] })).body.result,
      ).toMatchObject({ success: true });
    await rpc({ jsonrpc: "2.0", id: 5, method: "debug_bundler_setBundlingMode", params: ["auto"] });
  });

  it("drops an operation whose validated code changed before its bundle (COD-010), and sends the rest", async () => {
    const changing: Address = "0x00000000000000000000000000000000000c0d01";
    await setCode(changing, "0x600060005260206000f3"); // an account that validates anything, paid by its deposit
    await deposit(changing);
    const rich = await simpleAccount();
    const changed = await acceptedWhileManual(operation(changing));
    const bundler = createBundlerClient({ account: rich, client, transport: transport(), pollingInterval: 200 });
    const kept = await bundler.sendUserOperation({ calls: [{ to: RECIPIENT, value: 1n }] });
    // Other code that still validates: the bundle's eth_call alone would carry it.
    await setCode(changing, "0x5b600060005260206000f3");
    // The oldest, dropped, gives way: sendBundleNow answers the bundle that carries the rest.
    const sent = await rpc({ jsonrpc: "2.0", id: 3, method: "debug_bundler_sendBundleNow", params: [] });
    expect(sent.body.result, JSON.stringify(sent.body)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(
      userOperationEvents(await bundleMined(sent.body.result), entryPoint).map((event) => event.userOpHash),
    ).toEqual([kept]);
    const [dropped] = await operationRows([changed]);
    expect(dropped).toMatchObject({ status: "failed" });
    expect(dropped?.failureReason).toContain(`[COD-010] the code of ${changing}`);
    expect((await bundler.waitForUserOperationReceipt({ hash: kept, timeout: 30_000 })).success).toBe(true);
    expect(
      (await rpc({ jsonrpc: "2.0", id: 4, method: "eth_getUserOperationReceipt", params: [changed] })).body.result,
    ).toBeNull();
    await rpc({ jsonrpc: "2.0", id: 5, method: "debug_bundler_setBundlingMode", params: ["auto"] });
  });

  it("drops an operation whose EIP-7702 sender points its delegation elsewhere before its bundle (COD-010)", async () => {
    const [first, second]: Address[] = [
      "0x00000000000000000000000000000000000c0d71", // two accounts that validate anything, with different code
      "0x00000000000000000000000000000000000c0d72",
    ];
    const eoa: Address = "0x00000000000000000000000000000000000c7702";
    await setCode(first, "0x600060005260206000f3");
    await setCode(second, "0x5b600060005260206000f3");
    await setCode(eoa, `0xef0100${first.slice(2)}`);
    await deposit(eoa);
    try {
      await acceptedWhileManual(operation(eoa));
      // A new authorisation on chain: the delegate's code is unchanged, the account's delegation is not.
      await setCode(eoa, `0xef0100${second.slice(2)}`);
      await expectDroppedForChangedCode(eoa);
    } finally {
      await rpc({ jsonrpc: "2.0", id: 4, method: "debug_bundler_setBundlingMode", params: ["auto"] });
    }
  });

  it("writes a deployed account's operation while validating it: a refused one leaves no row, an unfinished acceptance waits or is validated again", async () => {
    const [a, b, c] = [await simpleAccount(), await simpleAccount(), await simpleAccount()];
    // Each deployed by a first operation: the next ones name no factory (the one-statement write, quick-insert.ts).
    await Promise.all(
      [a, b, c].map(async (account) => {
        const bundler = createBundlerClient({ account, client, transport: transport(), pollingInterval: 200 });
        const hash = await bundler.sendUserOperation({ calls: [{ to: RECIPIENT, value: 1n }] });
        await bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 });
      }),
    );
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    const rows = bundlerDb(db.platform);
    try {
      // Refused by its validation (not the owner's signature): the row written meanwhile is withdrawn.
      const bundlerA = createBundlerClient({ account: a, client, transport: transport(), pollingInterval: 200 });
      const prepared = await bundlerA.prepareUserOperation({ calls: [{ to: RECIPIENT, value: 1n }] });
      const badHash = getUserOperationHash({
        chainId: chain.id,
        entryPointAddress: entryPoint,
        entryPointVersion: "0.8",
        userOperation: { ...prepared, signature: "0x" },
      });
      const signature = await privateKeyToAccount(generatePrivateKey()).sign({ hash: badHash });
      const refused = await rpc({
        jsonrpc: "2.0",
        id: 1,
        method: "eth_sendUserOperation",
        params: [formatUserOperationRequest({ ...prepared, signature }), entryPoint],
      });
      expect(refused.body.error.code).toBe(-32507);
      expect(await rows.selectFrom("bundlerUserOperations").where("userOpHash", "=", badHash).execute()).toEqual([]);

      // Three accepted operations, then made to look as a stopped process leaves them (accepting): b's 32 s ago, a's
      // 31 s, c's just now; b's account has lost its code since. The oldest, b's, is refused when validated again:
      // sendBundleNow answers the bundle of the next oldest, a's.
      await bundlingManual();
      const hashes: Hex[] = [];
      for (const account of [a, b, c]) {
        const bundler = createBundlerClient({ account, client, transport: transport() });
        hashes.push(await bundler.sendUserOperation({ calls: [{ to: RECIPIENT, value: 1n }] }));
      }
      const [aHash, bHash, cHash] = hashes as [Hex, Hex, Hex];
      const unfinished = (hash: Hex, ageSeconds: number) =>
        rows
          .updateTable("bundlerUserOperations")
          .set({ accepting: true, createdAt: new Date(Date.now() - ageSeconds * 1000) })
          .where("userOpHash", "=", hash)
          .execute();
      await unfinished(aHash, 31);
      await unfinished(bHash, 32);
      await unfinished(cHash, 0);
      await setCode(b.address, "0x");
      const sent = await rpc({ jsonrpc: "2.0", id: 3, method: "debug_bundler_sendBundleNow", params: [] });
      expect(sent.body.result, JSON.stringify(sent.body)).toMatch(/^0x[0-9a-f]{64}$/);
      const bundle = await bundleMined(sent.body.result as Hex);
      expect(userOperationEvents(bundle, entryPoint).map((event) => event.userOpHash)).toEqual([aHash]);
      const state = async (hash: Hex) =>
        rows
          .selectFrom("bundlerUserOperations")
          .select(["status", "accepting", "failureReason"])
          .where("userOpHash", "=", hash)
          .executeTakeFirstOrThrow();
      expect(await state(bHash)).toMatchObject({ status: "failed", accepting: false });
      expect((await state(bHash)).failureReason).toMatch(/^refused when validated again: AA20/);
      expect(await state(cHash)).toMatchObject({ status: "pending", accepting: true }); // its acceptance may still run
      await unfinished(cHash, 31);
      const next = await rpc({ jsonrpc: "2.0", id: 4, method: "debug_bundler_sendBundleNow", params: [] });
      expect(next.body, await answerAndRows(next.body, [cHash])).toMatchObject({
        result: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      const second = await bundleMined(next.body.result as Hex);
      expect(userOperationEvents(second, entryPoint).map((event) => event.userOpHash)).toEqual([cHash]);
    } finally {
      await rpc({ jsonrpc: "2.0", id: 5, method: "debug_bundler_setBundlingMode", params: ["auto"] });
      await db.close();
    }
  });

  it("keeps a sendBundleNow's run sent at once when a bundle confirmed meanwhile wakes the next run (manual)", async () => {
    const [a, c] = [await simpleAccount(), await simpleAccount()];
    // Deployed by a first operation each (auto mode): the executor the runs below use (the first idle) is funded.
    await Promise.all(
      [a, c].map(async (account) => {
        const bundler = createBundlerClient({ account, client, transport: transport(), pollingInterval: 200 });
        const hash = await bundler.sendUserOperation({ calls: [{ to: RECIPIENT, value: 1n }] });
        await bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 });
      }),
    );
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    const send = (account: typeof a) =>
      createBundlerClient({ account, client, transport: transport() }).sendUserOperation({
        calls: [{ to: RECIPIENT, value: 1n }],
      });
    const sendBundleNow = () => rpc({ jsonrpc: "2.0", id: 3, method: "debug_bundler_sendBundleNow", params: [] });
    let release = () => {};
    let held: Promise<unknown> = Promise.resolve();
    try {
      await bundlingManual();
      // a's bundle is signed but not mined; c's operation, accepted after it, waits for the next run.
      await client.request({ method: "evm_setAutomine" as never, params: [false] as never });
      const aHash = await send(a);
      const first = await sendBundleNow();
      expect(first.body, await answerAndRows(first.body, [aHash])).toMatchObject({ result: expect.any(String) });
      const cHash = await send(c);
      await vi.waitFor(async () => expect(await bundleJobs()).toEqual([]), { timeout: 10_000, interval: 50 });
      // The bundling queues held (graphile-worker skips a queue whose row another transaction locks): the next
      // sendBundleNow's run waits, queued, while a's bundle is mined and its confirmation wakes the next run.
      const locked = new Promise<void>((resolveLocked, rejectLocked) => {
        held = db.platform
          .transaction()
          .execute(async (trx) => {
            const { rows } = await sql`select id from graphile_worker._private_job_queues
              where queue_name like 'bundler:%' for update`.execute(trx);
            expect(rows.length).toBeGreaterThan(0);
            await new Promise<void>((resolveRelease) => {
              release = resolveRelease;
              resolveLocked();
            });
          })
          .catch(rejectLocked);
      });
      await locked;
      const next = sendBundleNow();
      await vi.waitFor(
        async () => expect((await bundleJobs()).map((job) => job.payload)).toMatchObject([{ now: true }]),
        { timeout: 10_000, interval: 50 },
      );
      await client.request({ method: "evm_mine" as never, params: [] as never });
      await vi.waitFor(async () => expect(await operationRows([aHash])).toMatchObject([{ status: "included" }]), {
        timeout: 10_000,
        interval: 50,
      });
      await client.request({ method: "evm_setAutomine" as never, params: [true] as never });
      release();
      await held;
      // The run still sent at once (the confirmation's wake folded into it): c's bundle, not null.
      const answer = await next;
      expect(answer.body, await answerAndRows(answer.body, [cHash])).toMatchObject({
        result: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      const bundle = await bundleMined(answer.body.result as Hex);
      expect(userOperationEvents(bundle, entryPoint).map((event) => event.userOpHash)).toEqual([cHash]);
    } finally {
      release();
      await held.catch(() => {});
      await client.request({ method: "evm_setAutomine" as never, params: [true] as never });
      await rpc({ jsonrpc: "2.0", id: 5, method: "debug_bundler_setBundlingMode", params: ["auto"] });
      await db.close();
    }
  });

  it("bundles several operations per handleOps, split over two executors sending at once (manual, sendBundleNow)", async () => {
    const [a, b, c] = [await simpleAccount(), await simpleAccount(), await simpleAccount()];
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    try {
      // Both executors idle (earlier bundles completed: a receipt is on the chain a moment before), so both get one.
      const inFlight = () =>
        bundlerDb(db.platform)
          .selectFrom("bundlerUserOperations")
          .select("userOpHash")
          .where("status", "=", "submitted");
      await expect.poll(async () => (await inFlight().execute()).length, { timeout: 10_000, interval: 100 }).toBe(0);
    } finally {
      await db.close();
    }
    await bundlingManual();
    const hashes: Hex[] = [];
    for (const account of [a, b, c]) {
      const bundler = createBundlerClient({ account, client, transport: transport() });
      hashes.push(await bundler.sendUserOperation({ calls: [{ to: RECIPIENT, value: 1n }] }));
    }
    const pool = await rpc({ jsonrpc: "2.0", id: 2, method: "debug_bundler_dumpMempool", params: [entryPoint] });
    expect(pool.body.result).toHaveLength(3);
    // The minute's wake sweep (wake-sweep.ts) would wake this organisation's run were the chain in auto mode (set
    // here in the table, not by the debug method, which wakes it), not in manual mode.
    const sweepDb = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    try {
      const organizationId = stack.platform.credentials.organizationId;
      const swept = async (mode: "auto" | "manual") => {
        await bundlerDb(sweepDb.platform).updateTable("bundlerSettings").set({ bundlingMode: mode }).execute();
        const stale = await staleBundlingRuns(bundlerDb(sweepDb.platform), new Date(Date.now() + 60_000));
        return stale.some((run) => run.chainId === chain.id && run.organizationId === organizationId);
      };
      expect([await swept("auto"), await swept("manual")]).toEqual([true, false]);
    } finally {
      await sweepDb.close();
    }
    // The oldest sender's bundle is the one answered: a and b fill the first executor's, c goes from the second, at
    // once.
    const sent = await rpc({ jsonrpc: "2.0", id: 3, method: "debug_bundler_sendBundleNow", params: [] });
    const transactionHash = sent.body.result as Hex;
    const bundler = createBundlerClient({ client, transport: transport(), pollingInterval: 100 });
    const receipts = await Promise.all(
      hashes.map((hash) => bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 })),
    );
    expect(receipts.map((receipt) => receipt.success)).toEqual([true, true, true]);
    expect(receipts[0].receipt.transactionHash).toBe(transactionHash);
    expect(receipts[1].receipt.transactionHash).toBe(transactionHash);
    const other = receipts[2].receipt.transactionHash;
    expect(other).not.toBe(transactionHash);
    const bundles = await Promise.all([transactionHash, other].map((hash) => client.getTransaction({ hash })));
    expect(bundles.map((bundle) => bundle.to?.toLowerCase())).toEqual([
      entryPoint.toLowerCase(),
      entryPoint.toLowerCase(),
    ]);
    expect(bundles[0].from).not.toBe(bundles[1].from);
    // Each operation included once: one UserOperationEvent of each among both bundles' logs.
    const events = (
      await Promise.all([transactionHash, other].map((hash) => client.getTransactionReceipt({ hash })))
    ).flatMap((receipt) => userOperationEvents(receipt, entryPoint).map((event) => event.userOpHash));
    expect(events.sort()).toEqual([...hashes].sort());
    await rpc({ jsonrpc: "2.0", id: 5, method: "debug_bundler_setBundlingMode", params: ["auto"] });
  });

  it("finishes a bundle whose run stopped after claiming its operations, before queuing its write: one write, each operation once", async () => {
    const hashes = await acceptedInManualMode([await simpleAccount(), await simpleAccount()]);
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    const bundleId = uuidv7();
    try {
      const operations = bundlerDb(db.platform);
      // What a run killed between its claim and its write leaves (bundle-claims.ts): the operations submitted under
      // the bundle's id and an executor of the organisation's (one an earlier bundle went from), no write linked.
      const { executor } = await operations
        .selectFrom("bundlerUserOperations")
        .select("executor")
        .where("organizationId", "=", stack.platform.credentials.organizationId)
        .where("executor", "is not", null)
        .orderBy("updatedAt", "desc")
        .executeTakeFirstOrThrow();
      // The minute's wake sweep (in auto mode) wakes a run for such a bundle once it is stale: claimed two hours ago
      // here, so that an hour's staleness tells it from the pending operations (all newer than an hour).
      const organizationId = stack.platform.credentials.organizationId;
      const swept = async () => {
        await operations.updateTable("bundlerSettings").set({ bundlingMode: "auto" }).execute();
        const stale = await staleBundlingRuns(operations, new Date(Date.now() - 3_600_000));
        await operations.updateTable("bundlerSettings").set({ bundlingMode: "manual" }).execute();
        return stale.some((run) => run.chainId === chain.id && run.organizationId === organizationId);
      };
      expect(await swept()).toBe(false);
      const claimed = await operations
        .updateTable("bundlerUserOperations")
        .set({ status: "submitted", bundleId, executor, updatedAt: new Date(Date.now() - 7_200_000) })
        .where("userOpHash", "in", hashes)
        .where("status", "=", "pending")
        .executeTakeFirst();
      expect(claimed.numUpdatedRows).toBe(2n);
      expect(await swept()).toBe(true);
      // No run claims them anew (they are not pending): the next one finishes that bundle, from that executor.
      const sent = await rpc({ jsonrpc: "2.0", id: 2, method: "debug_bundler_sendBundleNow", params: [] });
      expect(sent.body.error, JSON.stringify(sent.body)).toBeUndefined();
      const bundler = createBundlerClient({ client, transport: transport(), pollingInterval: 100 });
      const receipts = await Promise.all(
        hashes.map((hash) => bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 })),
      );
      expect(receipts.map((receipt) => receipt.success)).toEqual([true, true]);
      const transactionHash = receipts[0].receipt.transactionHash;
      expect(receipts[1].receipt.transactionHash).toBe(transactionHash);
      expect((await client.getTransaction({ hash: transactionHash })).from.toLowerCase()).toBe(executor);
      // Another run finds nothing of it left to do: still the one write under the bundle's key.
      await rpc({ jsonrpc: "2.0", id: 3, method: "debug_bundler_sendBundleNow", params: [] });
      const writes = () =>
        db.platform
          .selectFrom("transactionRequests")
          .select(["status", "transactionHash"])
          .where("idempotencyKey", "=", `bundle:${bundleId}`)
          .execute();
      await expect.poll(writes, { timeout: 10_000, interval: 100 }).toEqual([{ status: "COMPLETED", transactionHash }]);
      const events = userOperationEvents(await client.getTransactionReceipt({ hash: transactionHash }), entryPoint);
      expect(events.map((event) => event.userOpHash).sort()).toEqual([...hashes].sort());
    } finally {
      await db.close();
      await rpc({ jsonrpc: "2.0", id: 4, method: "debug_bundler_setBundlingMode", params: ["auto"] });
    }
  });

  /** Two contracts that validate in either role (STO-040's tests), deposited at the EntryPoint: validatePaymasterUserOp's
   * selector answers an empty context and validationData 0, any other call validationData 0. */
  async function dualRoleContracts(dual: Address, payer: Address) {
    const code: Hex = "0x5f3560e01c6352b7512c1460125760205ff35b60405f525f6020525f60405260605ff3";
    for (const address of [dual, payer]) {
      await setCode(address, code);
      await deposit(address);
    }
    return async (method: string, params: unknown[]) => (await rpc({ jsonrpc: "2.0", id: 1, method, params })).body;
  }

  it("refuses an address as both a sender and a paymaster among the mempool's operations (STO-040)", async () => {
    const dual: Address = "0x00000000000000000000000000000000000a7563";
    const payer: Address = "0x00000000000000000000000000000000000b7563";
    const call = await dualRoleContracts(dual, payer);
    const send = (op: object) => call("eth_sendUserOperation", [op, entryPoint]);
    expect((await call("debug_bundler_setBundlingMode", ["manual"])).result).toBe("ok"); // both stay live
    try {
      // A sender's live operation, then one it pays for; and the other way round.
      for (const [first, second] of [
        [operation(dual), operation(payer, dual)],
        [operation(payer, dual), operation(dual)],
      ]) {
        const accepted = await send(first);
        expect(accepted.result, JSON.stringify(accepted)).toMatch(/^0x[0-9a-f]{64}$/);
        const refused = await send(second);
        expect(refused.error, JSON.stringify(refused)).toMatchObject({ code: -32502, data: { rule: "STO-040" } });
        expect(await call("debug_bundler_clearState", [])).toMatchObject({ result: "ok" });
      }
    } finally {
      await call("debug_bundler_setBundlingMode", ["auto"]);
    }
  });

  it("judges STO-040 after an acceptance in progress on the same address has committed", async () => {
    const dual: Address = "0x00000000000000000000000000000000000a7564";
    const payer: Address = "0x00000000000000000000000000000000000b7564";
    const call = await dualRoleContracts(dual, payer);
    expect((await call("debug_bundler_setBundlingMode", ["manual"])).result).toBe("ok");
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    const connection = await db.pool.connect();
    try {
      // An acceptance of an operation `dual` sends, caught between its lock and its commit.
      await connection.query("begin");
      await connection.query("select platform.bundler_lock_sender($1, $2, $3)", [
        chain.id,
        entryPoint.toLowerCase(),
        dual.toLowerCase(),
      ]);
      await connection.query(
        `insert into platform.bundler_user_operations (user_op_hash, chain_id, entry_point, sender, nonce,
           organization_id, user_operation, packed_operation, max_fee_per_gas, max_priority_fee_per_gas, status)
         values ($1, $2, $3, $4, 0, $5, '{}', '{}', 1, 1, 'pending')`,
        [
          `0x${"7564".repeat(16)}`,
          chain.id,
          entryPoint.toLowerCase(),
          dual.toLowerCase(),
          stack.platform.credentials.organizationId,
        ],
      );
      // An operation `dual` pays for, sent meanwhile: its acceptance waits for dual's, then sees it.
      const paid = call("eth_sendUserOperation", [operation(payer, dual), entryPoint]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await connection.query("commit");
      const answer = await paid;
      expect(answer.error, JSON.stringify(answer)).toMatchObject({ code: -32502, data: { rule: "STO-040" } });
    } finally {
      await connection.query("rollback").catch(() => {}); // after a failed step
      connection.release();
      await call("debug_bundler_clearState", []);
      await call("debug_bundler_setBundlingMode", ["auto"]);
      await db.close();
    }
  });

  it("refuses, then holds back, an operation using storage of another live operation's sender (STO-041)", async () => {
    // `owner` validates reading its own slot keyed by its caller; `user` validates calling it, so reading the slot
    // keyed by itself in owner's storage (associated with user: STO-021 allows it, owner being no sender).
    const owner: Address = "0x00000000000000000000000000000000000a7041";
    const user: Address = "0x00000000000000000000000000000000000b7041";
    const accountReturn = "5f5f5260205ff3"; // validationData 0
    await setCode(owner, `0x335450${accountReturn}`); // SLOAD(CALLER)
    await setCode(user, `0x5f5f5f5f73${owner.slice(2)}5afa50${accountReturn}`); // STATICCALL(gas, owner, …)
    for (const address of [owner, user]) await deposit(address);
    const call = async (method: string, params: unknown[]) =>
      (await rpc({ jsonrpc: "2.0", id: 1, method, params })).body;
    const send = (op: object) => call("eth_sendUserOperation", [op, entryPoint]);
    await bundlingManual();
    try {
      // At acceptance: owner is a live operation's sender.
      expect((await send(operation(owner))).result).toMatch(/^0x[0-9a-f]{64}$/);
      const refused = await send(operation(user));
      expect(refused.error, JSON.stringify(refused)).toMatchObject({
        code: -32502,
        data: { rule: "STO-041", address: owner.toLowerCase() },
      });
      expect(refused.error.message).toMatch(/^\[STO-041\]/);
      expect(await call("debug_bundler_clearState", [])).toMatchObject({ result: "ok" });
      // When bundled: user's operation came first, owner's after it (accepted: its own validation uses no other
      // storage). user's waits until owner's is mined, then goes in a later bundle.
      const hashes = [(await send(operation(user))).result, (await send(operation(owner))).result] as Hex[];
      expect(hashes[1]).toMatch(/^0x[0-9a-f]{64}$/);
      await minedInOrder(hashes[1], hashes[0]);
    } finally {
      await call("debug_bundler_setBundlingMode", ["auto"]);
    }
  });

  it("bundles operations that used each other's sender's storage, accepted at once: the first accepted first (STO-041)", async () => {
    const [a, b] = [await simpleAccount(), await simpleAccount()];
    const hashes = await acceptedInManualMode([a, b]);
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    try {
      // What two acceptances at once leave when each validation used the other's sender's storage (neither saw the
      // other live yet, so neither was refused): each operation waits for the other's sender.
      for (const [hash, other] of [
        [hashes[0], b.address],
        [hashes[1], a.address],
      ])
        await bundlerDb(db.platform)
          .updateTable("bundlerUserOperations")
          .set({ storageAddresses: [other.toLowerCase()] })
          .where("userOpHash", "=", hash)
          .execute();
      await minedInOrder(hashes[0], hashes[1]);
    } finally {
      await db.close();
      await rpc({ jsonrpc: "2.0", id: 3, method: "debug_bundler_setBundlingMode", params: ["auto"] });
    }
  });

  it("answers at once the bundle of the next oldest when the run holds the oldest back (STO-041), null if all", async () => {
    const [a, b] = [await simpleAccount(), await simpleAccount()];
    const hashes = await acceptedInManualMode([a, b]);
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    const holdBack = (hash: Hex, storageOf: Address) =>
      bundlerDb(db.platform)
        .updateTable("bundlerUserOperations")
        .set({ storageAddresses: [storageOf.toLowerCase()] })
        .where("userOpHash", "=", hash)
        .execute();
    try {
      // The oldest (a's) used the storage of b's sender while b's operation is live: bundling holds it back until
      // b's is on chain. sendBundleNow used to wait its 20 s for a's bundle and answer -32603.
      await holdBack(hashes[0]!, b.address);
      const started = Date.now();
      const sent = await rpc({ jsonrpc: "2.0", id: 2, method: "debug_bundler_sendBundleNow", params: [] });
      expect(sent.body.result, await answerAndRows(sent.body, hashes)).toMatch(/^0x[0-9a-f]{64}$/);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(
        userOperationEvents(await bundleMined(sent.body.result), entryPoint).map((event) => event.userOpHash),
      ).toEqual([hashes[1]]);
      // Everything waiting held back: a's operation, free of b's once that is mined, as if its acceptance were still
      // running (a run takes no operation still accepting). No bundle: null, at once.
      await bundlerDb(db.platform)
        .updateTable("bundlerUserOperations")
        .set({ storageAddresses: null, accepting: true, createdAt: new Date() })
        .where("userOpHash", "=", hashes[0]!)
        .execute();
      const again = Date.now();
      const none = await rpc({ jsonrpc: "2.0", id: 3, method: "debug_bundler_sendBundleNow", params: [] });
      expect(none.body, await answerAndRows(none.body, hashes)).toEqual({ jsonrpc: "2.0", id: 3, result: null });
      expect(Date.now() - again).toBeLessThan(10_000);
      expect((await operationRows([hashes[0]!]))[0]).toMatchObject({ status: "pending" });
    } finally {
      await bundlerDb(db.platform)
        .updateTable("bundlerUserOperations")
        .set({ storageAddresses: null, accepting: false })
        .where("userOpHash", "in", hashes)
        .execute();
      await db.close();
      await rpc({ jsonrpc: "2.0", id: 4, method: "debug_bundler_setBundlingMode", params: ["auto"] });
    }
  });

  it("drops a throttled paymaster's operations live for more than THROTTLED_ENTITY_LIVE_BLOCKS", async () => {
    const paymaster: Address = "0x0000000000000000000000000000000000f27562";
    await setCode(paymaster, "0x604060005260606000f3"); // sponsors anything
    await deposit(paymaster);
    const accounts: Address[] = [
      "0x0000000000000000000000000000000000f37562",
      "0x0000000000000000000000000000000000f47562",
      "0x0000000000000000000000000000000000f57562",
    ];
    for (const account of accounts) await setCode(account, "0x600060005260206000f3");
    const call = async (method: string, params: unknown[]) =>
      (await rpc({ jsonrpc: "2.0", id: 1, method, params })).body;
    const send = async (account: Address) => {
      const body = await call("eth_sendUserOperation", [operation(account, paymaster), entryPoint]);
      expect(body.result, JSON.stringify(body)).toMatch(/^0x[0-9a-f]{64}$/);
      return body.result as Hex;
    };
    // Mined blocks, then a second: the acceptance's head is cached for one.
    const mine = async (blocks: number) => {
      await client.request({ method: "anvil_mine" as never, params: [toHex(blocks)] as never });
      await new Promise((resolve) => setTimeout(resolve, 1100));
    };
    const waiting = async () =>
      ((await call("debug_bundler_dumpMempool", [entryPoint])).result as { sender: string }[]).map((op) =>
        getAddress(op.sender),
      );
    await bundlingManual();
    try {
      // maxSeen 20 > opsIncluded + THROTTLING_SLACK: throttled, not banned.
      await call("debug_bundler_setReputation", [[{ address: paymaster, opsSeen: 200, opsIncluded: 0 }], entryPoint]);
      // Live for 5 blocks: bundled.
      const kept = await send(accounts[0]);
      await mine(5);
      const sent = await call("debug_bundler_sendBundleNow", []);
      expect(sent.result, await answerAndRows(sent, [kept])).toMatch(/^0x[0-9a-f]{64}$/);
      expect((await bundleMined(sent.result as Hex)).status).toBe("success");
      const receipt = await call("eth_getUserOperationReceipt", [kept]);
      expect(receipt.result, JSON.stringify(receipt)).toMatchObject({ success: true });
      // Live for 11 blocks: the paymaster's next acceptance drops it (it no longer counts against the 4 allowed).
      await send(accounts[1]);
      await mine(11);
      await send(accounts[2]);
      expect(await waiting()).toEqual([getAddress(accounts[2])]);
      // … and so does a bundling run.
      await mine(11);
      const dropped = await call("debug_bundler_sendBundleNow", []);
      expect(dropped.error?.message, JSON.stringify(dropped)).toContain("is throttled: live for more than 10 blocks");
      expect(await waiting()).toEqual([]);
    } finally {
      await call("debug_bundler_clearReputation", []);
      await call("debug_bundler_setBundlingMode", ["auto"]);
    }
  });

  it("EIP-7702: an EOA's first operation delegates it by its eip7702Auth (a type-4 bundle), the next needs none", async () => {
    const deployer = createWalletClient({ account: anvilAccount(9), chain, transport: http() });
    const { abi, bytecode } = accountAbstractionArtifact("Simple7702Account");
    const implementation = (
      await client.waitForTransactionReceipt({ hash: await deployer.deployContract({ abi, bytecode }) })
    ).contractAddress as Address;
    const owner = privateKeyToAccount(generatePrivateKey());
    await client.waitForTransactionReceipt({
      hash: await deployer.sendTransaction({ to: owner.address, value: parseEther("1") }), // it pays its own gas
    });
    const account = await toSimple7702SmartAccount({
      client,
      owner,
      implementation,
      entryPoint: { address: entryPoint, abi: entryPoint08Abi, version: "0.8" },
    });
    const authorization = await signAuthorization(client, { account: owner, contractAddress: implementation });
    // Only EntryPoint v0.8 takes a 7702 sender's operation.
    const onV07 = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_sendUserOperation",
      params: [
        formatUserOperationRequest({
          sender: owner.address,
          nonce: 0n,
          factory: "0x7702",
          factoryData: "0x",
          callData: "0x",
          callGasLimit: 50_000n,
          verificationGasLimit: 100_000n,
          preVerificationGas: 100_000n,
          maxFeePerGas: 2_000_000_000n,
          maxPriorityFeePerGas: 1_000_000_000n,
          signature: "0x",
          authorization,
        }),
        entryPointV07,
      ],
    });
    expect(onV07.body.error).toMatchObject({ code: -32602, data: { field: "eip7702Auth" } });

    const bundler = createBundlerClient({ account, client, transport: transport(), pollingInterval: 200 });
    const first = await bundler.sendUserOperation({ calls: [{ to: RECIPIENT, value: 11n }], authorization });
    const receipt = await bundler.waitForUserOperationReceipt({ hash: first, timeout: 30_000 });
    expect(receipt).toMatchObject({ success: true, userOpHash: first });
    expect(receipt.sender.toLowerCase()).toBe(owner.address.toLowerCase());
    expect(await client.getCode({ address: owner.address })).toBe(`0xef0100${implementation.slice(2).toLowerCase()}`);
    // The bundle carried the authorisation in a type-4 transaction, from the list its stored request keeps.
    const bundle = await client.getTransaction({ hash: receipt.receipt.transactionHash });
    expect(bundle.type).toBe("eip7702");
    expect(bundle.authorizationList?.map((a) => a.address.toLowerCase())).toEqual([implementation.toLowerCase()]);
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    try {
      const request = await db.platform
        .selectFrom("transactionRequests")
        .select("authorizationList")
        .where("transactionHash", "=", receipt.receipt.transactionHash)
        .executeTakeFirstOrThrow();
      expect(request.authorizationList).toMatchObject([
        { address: getAddress(implementation), nonce: authorization.nonce },
      ]);
    } finally {
      await db.close();
    }

    const second = await bundler.sendUserOperation({ calls: [{ to: RECIPIENT, value: 12n }] });
    expect((await bundler.waitForUserOperationReceipt({ hash: second, timeout: 30_000 })).success).toBe(true);
  });

  it("indexes the v0.7 EntryPoint's operations like v0.8's (src/EntryPoint.ts)", async () => {
    const db = openDatabases(platformDbUrl(stack.env), "ledger", 1);
    try {
      const ledger = db.ledgerOn(chain.id);
      const deadline = Date.now() + 30_000;
      let row: { entryPoint: string; success: boolean } | undefined;
      while (!row && Date.now() < deadline) {
        row = await ledger
          .selectFrom("userOperation")
          .select(["entryPoint", "success"])
          .where("id", "=", v07Operation)
          .executeTakeFirst();
        if (!row) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(row).toEqual({ entryPoint: entryPointV07.toLowerCase(), success: true });
    } finally {
      await db.close();
    }
  });
});
