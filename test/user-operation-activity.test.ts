// User operations in the index and the activity feeds, on one booted stack: a weighted-multisig account created
// through the platform's factory by a test EOA, a SponsoringPaymaster the test deploys and funds, then one sponsored
// operation sent through POST /api/v2/bundler that moves tokens, adds a signer and raises the threshold. The index
// views hold the account with its signers, weights and threshold, the operation and the paymaster's deposit; the
// feeds show the operation's events with userOpHash, paymaster, actualGasCost and relayerKind; the bundler wallet's
// and the paymaster's feeds are readable by admin and gasManager, and a plain member gets the valid empty answer.
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  parseEther,
} from "viem";
import { formatUserOperationRequest, getUserOperationHash } from "viem/account-abstraction";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenAbi } from "../abis/Token.ts";
import { WeightedMultisigAccountAbi } from "../abis/WeightedMultisigAccount.ts";
import { WeightedMultisigAccountFactoryAbi } from "../abis/WeightedMultisigAccountFactory.ts";
import { accountAbstractionArtifact } from "../host/chain/entry-point.ts";
import { compileContracts } from "../scripts/contracts/compile.ts";
import { anvilAccount, keyedApi } from "./support/api-flows.ts";
import { type Member, type Operator, operator } from "./support/organizations.ts";
import { organizationStack } from "./support/shared-stack.ts";
import { createDepositToken, stackChain, type TestStack } from "./support/stack.ts";

const ENTRY_POINT_ABI = accountAbstractionArtifact("EntryPoint").abi;

interface FeedEvent {
  eventName: string;
  userOpHash: string | null;
  [field: string]: unknown;
}

describe("user operations in the index and the activity feeds", () => {
  let stack: TestStack;
  let ops: Operator;
  let organizationId: string;
  let admin: Member;
  let gasManager: Member;
  let plain: Member;
  let holder: Member; // the smart wallet's participant
  let entryPoint: Address;
  let account: Address; // lowercase
  let paymaster: Address; // lowercase
  let bundlerWallet: string;
  let token: Address;
  let userOpHash: Hex;
  const owner = privateKeyToAccount(generatePrivateKey());
  const cosigner = privateKeyToAccount(generatePrivateKey()).address;
  const recipient = privateKeyToAccount(generatePrivateKey()).address;

  const { call, write } = keyedApi(
    () => stack,
    () => stack.platform.credentials.apiKey,
  );
  const feed = async (path: string, key: string) => {
    const { status, body } = await call("GET", `${path}?page[limit]=200`, undefined, key);
    expect(status).toBe(200);
    return body as { data: FeedEvent[]; meta: { total: number } };
  };
  const accountFeed = (address: string, key: string) => feed(`/api/v2/system/accounts/${address}/activities`, key);
  /** The feed once it holds `eventName` (the index follows the chain a moment later). */
  async function feedWith(path: string, key: string, eventName: string) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await feed(path, key);
      if (answer.data.some((event) => event.eventName === eventName)) return answer.data;
      if (Date.now() > deadline) throw new Error(`${eventName} never reached ${path}: ${JSON.stringify(answer)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  async function bundlerRpc(method: string, params: unknown[]) {
    const { body } = await call("POST", "/api/v2/bundler", { jsonrpc: "2.0", id: 1, method, params });
    if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.result;
  }

  beforeAll(async () => {
    stack = await organizationStack("user-operation-activity");
    ops = operator(stack);
    organizationId = stack.platform.credentials.organizationId;
    [admin, gasManager, plain, holder] = [
      await ops.member(organizationId, "admin", "Ada Admin"),
      await ops.member(organizationId, "gasManager", "Gus Gas"),
      await ops.member(organizationId, "member", "Pia Plain"),
      await ops.member(organizationId, "member", "Sam Smart"),
    ];
    entryPoint = stack.platform.manifest.entryPoint as Address;
    const factory = stack.platform.manifest.smartAccountFactory as Address;
    token = await createDepositToken(stack, "Euro Deposit", "EURD");

    const chain = stackChain(stack);
    const client = createPublicClient({ chain, transport: http(), pollingInterval: 100 });
    const deployer = createWalletClient({ account: anvilAccount(7), chain, transport: http() });
    const mined = async (hash: Hex) => {
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
      return receipt;
    };
    // The account, created directly through the platform's factory: the owner alone, weight 1, threshold 1.
    const config = [[owner.address], [1n], 1n, 0n] as const;
    account = (
      await client.readContract({
        abi: WeightedMultisigAccountFactoryAbi,
        address: factory,
        functionName: "getAddress",
        args: config,
      })
    ).toLowerCase() as Address;
    await mined(
      await deployer.writeContract({
        abi: WeightedMultisigAccountFactoryAbi,
        address: factory,
        functionName: "createAccount",
        args: config,
      }),
    );
    // The paymaster, funded and sponsoring the account (the smart-wallets plugin's part, done by hand here).
    const { abi, bytecode } = compileContracts().contracts.SponsoringPaymaster;
    const deployed = await mined(
      await deployer.deployContract({ abi, bytecode, args: [entryPoint, deployer.account.address] }),
    );
    paymaster = deployed.contractAddress!.toLowerCase() as Address;
    await mined(
      await deployer.writeContract({ abi, address: paymaster, functionName: "deposit", value: parseEther("1") }),
    );
    await mined(
      await deployer.writeContract({ abi, address: paymaster, functionName: "setSponsored", args: [account, true] }),
    );
    await ops.db.platform
      .insertInto("wallets")
      .values([
        { address: account, organizationId, userId: holder.userId, kind: "smart-wallet", derivationPath: "" },
        { address: paymaster, organizationId, userId: null, kind: "paymaster", derivationPath: "" },
      ] as never)
      .execute();
    await write("POST", `/api/v2/tokens/${token}/mint`, { recipients: [account], amounts: ["10"] });

    // One sponsored operation: a token transfer, a second signer (weight 2) and threshold 2, in one executeBatch.
    const self = getAddress(account);
    const calls = [
      {
        target: token,
        value: 0n,
        data: encodeFunctionData({ abi: TokenAbi, functionName: "transfer", args: [recipient, 2n] }),
      },
      {
        target: self,
        value: 0n,
        data: encodeFunctionData({ abi: WeightedMultisigAccountAbi, functionName: "addSigner", args: [cosigner, 2n] }),
      },
      {
        target: self,
        value: 0n,
        data: encodeFunctionData({ abi: WeightedMultisigAccountAbi, functionName: "setThreshold", args: [2n] }),
      },
    ];
    const gasPrice = await client.getGasPrice();
    const operation = {
      sender: self,
      nonce: (await client.readContract({
        abi: ENTRY_POINT_ABI,
        address: entryPoint,
        functionName: "getNonce",
        args: [self, 0n],
      })) as bigint,
      callData: encodeFunctionData({ abi: WeightedMultisigAccountAbi, functionName: "executeBatch", args: [calls] }),
      callGasLimit: 600_000n,
      verificationGasLimit: 300_000n,
      preVerificationGas: 100_000n,
      maxFeePerGas: gasPrice * 2n,
      maxPriorityFeePerGas: gasPrice,
      paymaster: getAddress(paymaster),
      paymasterVerificationGasLimit: 100_000n,
      paymasterPostOpGasLimit: 0n,
      paymasterData: "0x" as Hex,
      signature: "0x" as Hex,
    };
    userOpHash = getUserOperationHash({
      chainId: chain.id,
      entryPointAddress: entryPoint,
      entryPointVersion: "0.8",
      userOperation: operation,
    });
    const signed = { ...operation, signature: await owner.sign({ hash: userOpHash }) };
    expect(await bundlerRpc("eth_sendUserOperation", [formatUserOperationRequest(signed), entryPoint])).toBe(
      userOpHash,
    );
    const deadline = Date.now() + 30_000;
    let bundleSender: string;
    for (;;) {
      const receipt = await bundlerRpc("eth_getUserOperationReceipt", [userOpHash]);
      if (receipt) {
        expect(receipt.success).toBe(true);
        bundleSender = receipt.receipt.from.toLowerCase();
        break;
      }
      if (Date.now() > deadline) throw new Error("the user operation was never included");
      await new Promise((r) => setTimeout(r, 200));
    }
    // Derived when the bundler first sends a bundle: one of its executors (wallets of kind bundler) sent this one.
    const executors = await ops.db.platform
      .selectFrom("wallets")
      .select("address")
      .where("organizationId", "=", organizationId)
      .where("kind", "=", "bundler")
      .execute();
    expect(executors.map((wallet) => wallet.address.toLowerCase())).toContain(bundleSender);
    bundlerWallet = bundleSender;
  }, 120_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  it("records the operation's events with its hash, paymaster, cost and bundler in the account's feed", async () => {
    const events = await feedWith(`/api/v2/system/accounts/${account}/activities`, holder.key, "UserOperationEvent");
    const ofOperation = events.filter((event) => event.userOpHash === userOpHash);
    expect(ofOperation.map((event) => event.eventName).sort()).toEqual([
      "SignerAdded",
      "ThresholdChanged",
      "TransferCompleted",
      "UserOperationEvent",
    ]);
    for (const event of ofOperation) {
      expect(event).toMatchObject({
        displaySender: { id: account },
        metaTxSigner: { id: account },
        relayerKind: "user-operation",
        relayer: { id: bundlerWallet },
        paymaster: { id: paymaster },
        actualGasCost: expect.stringMatching(/^[1-9]\d*$/),
      });
    }
    const operation = ofOperation.find((event) => event.eventName === "UserOperationEvent")!;
    expect(operation).toMatchObject({
      emitter: { id: entryPoint.toLowerCase() },
      sender: { id: account },
      involved: expect.arrayContaining([{ id: account }, { id: paymaster }, { id: bundlerWallet }]),
    });
    expect(operation.values).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "success", value: "true" })]),
    );
    // Created directly by the test's EOA: no relay; the mint came from the organisation's signer.
    const created = events.find((event) => event.eventName === "AccountCreated");
    expect(created).toMatchObject({
      relayerKind: null,
      userOpHash: null,
      involved: [{ id: owner.address.toLowerCase() }],
    });
    expect(events.some((event) => event.eventName === "MintCompleted")).toBe(true);
  });

  it("shows a sponsored operation's gas cost in the participant's feed", async () => {
    const events = await feedWith(`/api/v2/participants/${holder.userId}/activities`, holder.key, "UserOperationEvent");
    const transfer = events.find((event) => event.eventName === "TransferCompleted")!;
    expect(transfer).toMatchObject({ userOpHash, paymaster: { id: paymaster } });
    expect(transfer.actualGasCost).toMatch(/^[1-9]\d*$/);
  });

  it("keeps the account's signers, weights and threshold, the operation and the paymaster's deposit in the views", async () => {
    const ledger = ops.db.ledgerOn(stack.platform.credentials.chainId);
    expect(
      await ledger.selectFrom("smartWallet").selectAll().where("id", "=", account).executeTakeFirst(),
    ).toMatchObject({
      threshold: 2n,
      totalWeight: 3n,
      signerCount: 2,
      salt: 0n,
      createdBy: anvilAccount(7).address.toLowerCase(),
    });
    const signers = await ledger
      .selectFrom("smartWalletSigner")
      .select(["signer", "weight"])
      .where("wallet", "=", account)
      .orderBy("weight")
      .execute();
    expect(signers).toEqual([
      { signer: owner.address.toLowerCase(), weight: 1n },
      { signer: cosigner.toLowerCase(), weight: 2n },
    ]);
    const operation = await ledger
      .selectFrom("userOperation")
      .selectAll()
      .where("id", "=", userOpHash)
      .executeTakeFirst();
    expect(operation).toMatchObject({ sender: account, paymaster, success: true, bundler: bundlerWallet });
    // The EntryPoint emits no event for the gas it charges: the index subtracts each operation's cost itself.
    const client = createPublicClient({ chain: stackChain(stack), transport: http() });
    const onChain = await client.readContract({
      abi: ENTRY_POINT_ABI,
      address: entryPoint,
      functionName: "balanceOf",
      args: [paymaster],
    });
    const deposit = await ledger
      .selectFrom("entryPointDeposit")
      .select("deposit")
      .where("account", "=", paymaster)
      .executeTakeFirstOrThrow();
    expect(deposit.deposit).toBe(onChain);
    expect(deposit.deposit).toBe(parseEther("1") - operation!.actualGasCost);
  });

  it("lets admin and gasManager read the bundler wallet's and the paymaster's feeds; a plain member gets them empty", async () => {
    for (const reader of [admin, gasManager]) {
      const bundled = await accountFeed(bundlerWallet, reader.key);
      expect(bundled.data.find((event) => event.eventName === "UserOperationEvent")).toMatchObject({
        userOpHash,
        actualGasCost: expect.stringMatching(/^[1-9]\d*$/),
      });
      const sponsor = await accountFeed(paymaster, reader.key);
      expect(sponsor.data.map((event) => event.eventName)).toEqual(
        expect.arrayContaining(["UserOperationEvent", "Deposited"]),
      );
    }
    for (const address of [bundlerWallet, paymaster]) {
      expect(await accountFeed(address, plain.key)).toMatchObject({ data: [], meta: { total: 0 } });
      const metrics = await call("GET", `/api/v2/system/accounts/${address}/activity-metrics`, undefined, plain.key);
      expect([metrics.status, metrics.body.data.count]).toEqual([200, 0]);
    }
    // Another member's smart wallet is not the plain member's to read.
    expect((await accountFeed(account, plain.key)).meta.total).toBe(0);
  });
});
