// smart-wallets:deploy: a wallet's deployment on its chain as resumable steps, each a chain write of the
// organisation's primary wallet through the transaction pipeline, keyed (wallet, step, attempt) so a retried run
// attaches to the write it queued before; every step first checks whether the chain already has its effect. A run
// never waits for a write: it ends, and the write's end queues the next run (SubmitInput.wakeJob).
//   sponsorship       (sponsored wallets only) the organisation's paymaster (created once by the paymaster factory), its deposit at the
//                     EntryPoint topped up to PAYMASTER_DEPOSIT_WEI, and the wallet sponsored (counterfactually)
//   account           the account created by the factory at the predicted address
//   identity-key      the wallet as a management key on the participant's identity (when the participant has one)
//   identity-registry the wallet registered in the system's identity registry with that identity and country
import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  zeroAddress,
} from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import { IdentityAbi } from "../../abis/Identity.ts";
import { IdentityRegistryAbi } from "../../abis/IdentityRegistry.ts";
import { SponsoringPaymasterAbi } from "../../abis/SponsoringPaymaster.ts";
import { SponsoringPaymasterFactoryAbi } from "../../abis/SponsoringPaymasterFactory.ts";
import { WeightedMultisigAccountFactoryAbi } from "../../abis/WeightedMultisigAccountFactory.ts";
import { fundSigner } from "../../host/chain/fund-signer.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { TERMINAL_STATES } from "../../host/mutations/service.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import { addKeyedJob } from "../../host/worker/keyed-jobs.ts";
import { deployJob, WalletDeployPayload } from "./jobs.ts";
import type { SmartWalletSettings } from "./settings.ts";
import { type DeploymentStep, type SmartWalletRow, walletsDb } from "./tables.ts";
import { factoryArgs, organisationPaymaster, smartWalletDeployment, sponsorship } from "./wallet-chain.ts";

export const DEPLOY_STEP_KIND = "smart-wallet.deployment-step";
const MANAGEMENT = 1n;
const ECDSA_KEY = 1n;
/** A run after a pending write, should its wake-up be lost: the write's end normally queues the next run at once. */
const STAND_BY_RUN_MS = 30_000;

class StepFailed extends Error {}

/** The step's write is queued or on its way: the run ends here and resumes when it ends. */
class StepPending extends Error {
  constructor(
    readonly wallet: SmartWalletRow,
    readonly requestId: string,
  ) {
    super(`Waiting for request ${requestId}`);
  }
}

const addressKey = (address: Address) => keccak256(encodeAbiParameters([{ type: "address" }], [address]));

export function deployTask(ctx: PluginContext<"custody" | "deployment", SmartWalletSettings>) {
  const db = walletsDb(ctx.db.platform);

  /**
   * Queues (or finds again) the step's write: done when it completed, StepFailed when it failed, else StepPending
   * (the run ends; the write's end queues the next run: its wakeJob).
   */
  async function write(
    wallet: SmartWalletRow,
    step: string,
    call: { from: Address; to: Address; data: Hex; value?: bigint },
  ) {
    const request = await ctx.mutations.submit({
      organizationId: wallet.organizationId,
      chainId: wallet.chainId,
      kind: DEPLOY_STEP_KIND,
      to: call.to,
      data: call.data,
      value: call.value,
      from: call.from,
      createdBy: wallet.participantId,
      idempotencyKey: `smart-wallet:${wallet.address}:${step}:${wallet.attempt}`,
      wakeJob: deployJob(wallet.chainId, wallet.address),
    });
    if (!TERMINAL_STATES.has(request.status)) throw new StepPending(wallet, request.id);
    if (request.status !== "COMPLETED") throw new StepFailed(`${step}: ${request.errorMessage ?? request.status}`);
  }

  /**
   * Ends a run whose step waits for its write: the write's end wakes the next run; a later run stands by in case the
   * request ended before this run's job was released (the wake then replaced by this one: re-added at once).
   */
  async function waitForWrite(pending: StepPending) {
    const { wallet, requestId } = pending;
    const job = deployJob(wallet.chainId, wallet.address);
    await addKeyedJob(ctx.db.platform, { ...job, runAt: new Date(Date.now() + STAND_BY_RUN_MS) });
    const request = await ctx.mutations.find(wallet.organizationId, requestId);
    if (!request || TERMINAL_STATES.has(request.status)) await addKeyedJob(ctx.db.platform, job);
  }

  async function sponsor(on: ServedChain, wallet: SmartWalletRow, owner: Address) {
    const { paymasterFactory, entryPoint } = smartWalletDeployment(on);
    const paymaster = await organisationPaymaster(on, owner);
    let state = await sponsorship(on, paymaster, wallet.address as Address);
    if (!state.deployed)
      await write(wallet, "paymaster", {
        from: owner,
        to: paymasterFactory,
        data: encodeFunctionData({
          abi: SponsoringPaymasterFactoryAbi,
          functionName: "createPaymaster",
          args: [owner],
        }),
      });
    await ctx.db.platform
      .insertInto("wallets")
      .values({
        address: paymaster.toLowerCase(),
        organizationId: wallet.organizationId,
        userId: null,
        kind: "paymaster",
        derivationPath: "",
      })
      .onConflict((oc) => oc.column("address").doNothing())
      .execute();
    state = await sponsorship(on, paymaster, wallet.address as Address);
    const wanted = ctx.settings.PAYMASTER_DEPOSIT_WEI;
    if (state.deposit < wanted / 2n) {
      await fundSigner(ctx, on, owner);
      await write(wallet, "deposit", {
        from: owner,
        to: entryPoint,
        data: encodeFunctionData({ abi: entryPoint08Abi, functionName: "depositTo", args: [paymaster] }),
        value: wanted - state.deposit,
      });
    }
    if (!state.sponsored)
      await write(wallet, "sponsor", {
        from: owner,
        to: paymaster,
        data: encodeFunctionData({
          abi: SponsoringPaymasterAbi,
          functionName: "setSponsored",
          args: [wallet.address as Address, true],
        }),
      });
  }

  async function createAccount(on: ServedChain, wallet: SmartWalletRow, owner: Address) {
    const code = await on.client.getCode({ address: wallet.address as Address });
    if (!code || code === "0x")
      await write(wallet, "account", {
        from: owner,
        to: smartWalletDeployment(on).accountFactory,
        data: encodeFunctionData({
          abi: WeightedMultisigAccountFactoryAbi,
          functionName: "createAccount",
          args: factoryArgs(wallet.signers, wallet.threshold, wallet.salt),
        }),
      });
    await ctx.db.platform
      .insertInto("wallets")
      .values({
        address: wallet.address,
        organizationId: wallet.organizationId,
        userId: wallet.participantId,
        kind: "smart-wallet",
        derivationPath: "",
      })
      .onConflict((oc) => oc.column("address").doNothing())
      .execute();
  }

  /** The participant's custody wallet with an identity in the system's registry, and that identity. */
  async function participantIdentity(on: ServedChain, wallet: SmartWalletRow, registry: Address) {
    const eoas = await ctx.db.platform
      .selectFrom("wallets")
      .select("address")
      .where("organizationId", "=", wallet.organizationId)
      .where("userId", "=", wallet.participantId)
      .where("kind", "=", "eoa")
      .execute();
    for (const { address } of eoas) {
      const identity = await on.client.readContract({
        address: registry,
        abi: IdentityRegistryAbi,
        functionName: "identity",
        args: [getAddress(address)],
      });
      if (identity !== zeroAddress) return { eoa: getAddress(address), identity };
    }
    return undefined;
  }

  async function identitySteps(on: ServedChain, wallet: SmartWalletRow, owner: Address, step: DeploymentStep) {
    const system = await ctx.db.platform
      .selectFrom("organizationChains")
      .select("contracts")
      .where("organizationId", "=", wallet.organizationId)
      .where("chainId", "=", wallet.chainId)
      .executeTakeFirst();
    const registry = system?.contracts?.identityRegistry as Address | undefined;
    if (!registry) return; // no system on this chain: nothing to register with
    const found = await participantIdentity(on, wallet, registry);
    if (!found) return; // the participant has no identity: nothing to attach the wallet to
    const walletAddress = getAddress(wallet.address);
    if (step === "identity-key") {
      const has = (key: Hex) =>
        on.client.readContract({
          address: found.identity,
          abi: IdentityAbi,
          functionName: "keyHasPurpose",
          args: [key, MANAGEMENT],
        });
      if (await has(addressKey(walletAddress))) return;
      // A management key of the identity adds it: the organisation's wallet when it onboarded the participant.
      const from = (await has(addressKey(owner))) ? owner : found.eoa;
      if (from === found.eoa) await fundSigner(ctx, on, from);
      await write(wallet, "identity-key", {
        from,
        to: found.identity,
        data: encodeFunctionData({
          abi: IdentityAbi,
          functionName: "addKey",
          args: [addressKey(walletAddress), MANAGEMENT, ECDSA_KEY],
        }),
      });
      return;
    }
    const registered = await on.client.readContract({
      address: registry,
      abi: IdentityRegistryAbi,
      functionName: "contains",
      args: [walletAddress],
    });
    if (registered) return;
    const country = await on.client.readContract({
      address: registry,
      abi: IdentityRegistryAbi,
      functionName: "investorCountry",
      args: [found.eoa],
    });
    await write(wallet, "identity-registry", {
      from: owner,
      to: registry,
      data: encodeFunctionData({
        abi: IdentityRegistryAbi,
        functionName: "registerIdentity",
        args: [walletAddress, found.identity, country],
      }),
    });
  }

  const STEPS: DeploymentStep[] = ["sponsorship", "account", "identity-key", "identity-registry"];

  return defineTask(WalletDeployPayload, async ({ chainId, wallet: address }) => {
    const wallet = await db
      .selectFrom("smartWallets")
      .selectAll()
      .where("address", "=", address)
      .$if(chainId !== undefined, (q) => q.where("chainId", "=", chainId!))
      .executeTakeFirst();
    if (!wallet || wallet.step === "deployed" || wallet.step === "failed") return;
    const on = ctx.chains.get(wallet.chainId); // throws (the run is retried) on a chain no longer served
    const owner = await ctx.custody.primaryAddress(wallet.organizationId);
    await fundSigner(ctx, on, owner);
    for (const step of STEPS.slice(STEPS.indexOf(wallet.step))) {
      try {
        if (step === "sponsorship") {
          if (wallet.sponsored) await sponsor(on, wallet, owner);
        } else if (step === "account") await createAccount(on, wallet, owner);
        else await identitySteps(on, wallet, owner, step);
      } catch (error) {
        if (error instanceof StepPending) return waitForWrite(error);
        if (!(error instanceof StepFailed)) throw error; // the run is retried with backoff
        await db
          .updateTable("smartWallets")
          .set({ step: "failed", failedStep: step, failure: error.message, updatedAt: new Date() })
          .where("chainId", "=", wallet.chainId)
          .where("address", "=", address)
          .execute();
        return;
      }
      const next = STEPS[STEPS.indexOf(step) + 1] ?? "deployed";
      await db
        .updateTable("smartWallets")
        .set({ step: next, updatedAt: new Date() })
        .where("chainId", "=", wallet.chainId)
        .where("address", "=", address)
        .execute();
    }
  });
}
