// The paymaster attack of issue #34: members and auditors provisioned smart wallets on the organisation's gas, and a
// wallet whose only signer was an outside key had its UserOperations paid by the organisation's paymaster. Now:
// provisioning needs smartWallet:create (owner, admin, gasManager), the account-abstraction switches and, from a
// session, walletVerification; a wallet with an outside signer is not sponsored unless a gas spender decides so;
// revoking or granting it later is a gas spender's route; the bundler refuses eth_sendUserOperation to auditors,
// over-large batches and sponsorship past the daily limit.
// The organisation's paymaster deposit is read on chain (EntryPoint.balanceOf) around each refusal.
import { type Address, createPublicClient, encodeFunctionData, type Hex, http, toHex } from "viem";
import { entryPoint08Abi, getUserOperationHash, type UserOperation } from "viem/account-abstraction";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { WeightedMultisigAccountAbi } from "../../abis/WeightedMultisigAccount.ts";
import type { Member } from "../support/organizations.ts";
import { stackChain, type TestStack } from "../support/stack.ts";
import type { AttackContextGetter } from "./context.ts";

/** The stack settings these cases need (the runner boots with them). */
export const PAYMASTER_ATTACK_ENV = {
  ACCOUNT_ABSTRACTION_ENABLED: "true",
  // One sponsored operation per wallet and day: the second one shows the limit.
  BUNDLER_SPONSORED_OPERATIONS_PER_DAY: "1",
};

const RECIPIENT: Address = "0x000000000000000000000000000000000000bEEF";
const PIN = "135790";

export function paymasterAttacks(ctx: AttackContextGetter) {
  describe("paymaster: who spends the organisation's gas", () => {
    let stack: TestStack;
    let organizationId: string;
    let member: Member;
    let auditor: Member;
    let gasManager: Member;
    let spender: Member;
    let decider: Member;
    let entryPoint: Address;
    let paymaster: Address;
    let decidedWallet: Address;
    const outsider = privateKeyToAccount(generatePrivateKey());
    const chain = () => createPublicClient({ chain: stackChain(stack), transport: http() });
    const deposit = () =>
      chain().readContract({ address: entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [paymaster] });

    async function call(key: string | null, method: string, path: string, body?: unknown, headers = {}) {
      const res = await stack.api(path, {
        method,
        key,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    }
    const bundler = (key: string, body: unknown) => call(key, "POST", "/api/v2/bundler", body);
    const provision = (key: string, body: unknown = {}) =>
      call(key, "POST", "/api/v2/smart-wallets", body, { prefer: "wait=90" });
    const walletRows = (userId: string) =>
      ctx()
        .op.db.platform.selectFrom("wallets")
        .select("address")
        .where("userId", "=", userId)
        .where("kind", "=", "smart-wallet")
        .execute();

    /** A UserOperation of `wallet` moving nothing, paid by the organisation's paymaster, signed by `signer`. */
    async function sponsoredOperation(wallet: Address, signer: PrivateKeyAccount) {
      const [nonce, fees] = await Promise.all([
        chain().readContract({
          address: entryPoint,
          abi: entryPoint08Abi,
          functionName: "getNonce",
          args: [wallet, 0n],
        }),
        chain().estimateFeesPerGas(),
      ]);
      const op: UserOperation<"0.8"> = {
        sender: wallet,
        nonce,
        callData: encodeFunctionData({
          abi: WeightedMultisigAccountAbi,
          functionName: "execute",
          args: [RECIPIENT, 0n, "0x"],
        }),
        callGasLimit: 100_000n,
        verificationGasLimit: 200_000n,
        preVerificationGas: 100_000n,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        paymaster,
        paymasterVerificationGasLimit: 100_000n,
        paymasterPostOpGasLimit: 0n,
        paymasterData: "0x",
        signature: "0x",
      };
      const hash = getUserOperationHash({
        chainId: stack.platform.credentials.chainId,
        entryPointAddress: entryPoint,
        entryPointVersion: "0.8",
        userOperation: op,
      });
      const signature = await signer.sign({ hash });
      const q = (v: bigint) => toHex(v);
      return {
        hash,
        rpc: {
          sender: wallet,
          nonce: q(op.nonce),
          callData: op.callData,
          callGasLimit: q(op.callGasLimit),
          verificationGasLimit: q(op.verificationGasLimit),
          preVerificationGas: q(op.preVerificationGas),
          maxFeePerGas: q(op.maxFeePerGas),
          maxPriorityFeePerGas: q(op.maxPriorityFeePerGas),
          paymaster,
          paymasterVerificationGasLimit: q(100_000n),
          paymasterPostOpGasLimit: "0x0",
          paymasterData: "0x",
          signature,
        },
      };
    }
    const send = (key: string, op: unknown) =>
      bundler(key, { jsonrpc: "2.0", id: 1, method: "eth_sendUserOperation", params: [op, entryPoint] });

    async function receipt(key: string, hash: Hex) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const { body } = await bundler(key, {
          jsonrpc: "2.0",
          id: 2,
          method: "eth_getUserOperationReceipt",
          params: [hash],
        });
        if (body.result) return body.result;
        if (Date.now() > deadline) throw new Error(`No receipt for ${hash}: ${JSON.stringify(body)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }

    beforeAll(async () => {
      ({ stack } = ctx());
      const { op: ops } = ctx();
      organizationId = stack.platform.credentials.organizationId;
      entryPoint = stack.platform.manifest.entryPoint as Address;
      [member, auditor, gasManager, spender, decider] = await Promise.all([
        ops.member(organizationId, "member", "Attacking member"),
        ops.member(organizationId, "auditor", "Attacking auditor"),
        ops.member(organizationId, "gasManager", "Gas manager"),
        ops.member(organizationId, "gasManager", "Outside-signer gas manager"),
        ops.member(organizationId, "gasManager", "Deciding gas manager"),
      ]);
    });

    it("honours the organisation's executor policy at creation: 403 X_EXECUTOR_AA_DISABLED_FOR_ORG, nothing provisioned", async () => {
      const off = await provision(gasManager.key);
      expect([off.status, off.body.code]).toEqual([403, "X_EXECUTOR_AA_DISABLED_FOR_ORG"]);
      expect(await walletRows(gasManager.userId)).toEqual([]);
      const on = await call(stack.platform.credentials.apiKey, "PUT", "/api/v2/settings/executor-policy", {
        accountAbstractionEnabled: true,
      });
      expect(on.status).toBe(200);
    });

    it("a gasManager provisions a custody wallet, sponsored by the organisation's paymaster", async () => {
      const created = await provision(gasManager.key);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.data).toMatchObject({ sponsored: true, deployment: { status: "deployed" } });
      const gas = await call(gasManager.key, "GET", `/api/v2/smart-wallets/${created.body.data.address}/gas-status`);
      expect(gas.body.data.sponsored).toBe(true);
      paymaster = gas.body.data.paymaster;
      expect(await deposit()).toBeGreaterThan(0n);
    });

    it("a member-only and an auditor-only key get 403 USER_NOT_AUTHORIZED; nothing is sent on chain", async () => {
      const before = await deposit();
      const blockBefore = await chain().getBlockNumber();
      for (const attacker of [member, auditor]) {
        for (const body of [
          {},
          { validatorType: "weighted-multisig", signers: [{ address: outsider.address }], threshold: "1" },
        ]) {
          const refused = await provision(attacker.key, body);
          expect([refused.status, refused.body.code]).toEqual([403, "USER_NOT_AUTHORIZED"]);
          expect(refused.body.data).toMatchObject({ requiredPermission: "smartWallet:create" });
        }
        expect(await walletRows(attacker.userId)).toEqual([]);
      }
      expect(await chain().getBlockNumber()).toBe(blockBefore);
      expect(await deposit()).toBe(before);
    });

    it("a wallet with an outside signer is not sponsored: its UserOperation is refused and the deposit is unchanged", async () => {
      // The wallet: one signer, a key from outside the platform's custody, no decision to sponsor it.
      const created = await provision(spender.key, {
        validatorType: "weighted-multisig",
        signers: [{ address: outsider.address }],
        threshold: "1",
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.data.sponsored).toBe(false);
      const wallet = created.body.data.address as Address;
      const gas = await call(spender.key, "GET", `/api/v2/smart-wallets/${wallet}/gas-status`);
      expect(gas.body.data.sponsored).toBe(false);

      const before = await deposit();
      const op = await sponsoredOperation(wallet, outsider);
      const sent = await send(member.key, op.rpc);
      expect(sent.status).toBe(200);
      expect(sent.body.error).toMatchObject({ code: -32501 });
      expect(sent.body.error.data.dapiError.id).toBe("SVC-16011");
      expect(
        (await bundler(member.key, { jsonrpc: "2.0", id: 3, method: "eth_getUserOperationByHash", params: [op.hash] }))
          .body.result,
      ).toBeNull();
      expect(await deposit()).toBe(before);
    });

    it("the bundler: reads for an auditor, eth_sendUserOperation refused to it (JSON-RPC 4100), batches capped", async () => {
      const chainId = await bundler(auditor.key, { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
      expect(chainId.body.result).toBe(toHex(stack.platform.credentials.chainId));
      const refused = await send(auditor.key, (await sponsoredOperation(outsider.address, outsider)).rpc);
      expect(refused.status).toBe(200);
      expect(refused.body).toMatchObject({
        jsonrpc: "2.0",
        id: 1,
        error: { code: 4100, data: { requiredPermission: "bundler:send", dapiError: { id: "SVC-16020" } } },
      });
      const debug = await bundler(member.key, {
        jsonrpc: "2.0",
        id: 2,
        method: "debug_bundler_clearState",
        params: [],
      });
      expect(debug.body.error.code).toBe(-32601); // not served on this stack (BUNDLER_DEBUG_METHODS off)

      const batch = Array.from({ length: 21 }, (_, id) => ({ jsonrpc: "2.0", id, method: "eth_chainId", params: [] }));
      const tooLarge = await bundler(member.key, batch);
      expect(tooLarge.status).toBe(200);
      expect(tooLarge.body).toMatchObject({ id: null, error: { code: -32005, data: { maxBatchSize: 20 } } });
      expect((await bundler(member.key, batch.slice(0, 20))).body).toHaveLength(20);
    });

    it("sponsoring an outside signer is a gas spender's explicit decision; the daily limit then holds before the mempool", async () => {
      const decided = await provision(decider.key, {
        validatorType: "weighted-multisig",
        signers: [{ address: outsider.address }],
        threshold: "1",
        sponsored: true,
      });
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      expect(decided.body.data.sponsored).toBe(true);
      const wallet = decided.body.data.address as Address;

      const before = await deposit();
      const first = await sponsoredOperation(wallet, outsider);
      const sent = await send(member.key, first.rpc);
      expect(sent.body, JSON.stringify(sent.body)).toMatchObject({ result: first.hash });
      const mined = await receipt(member.key, first.hash);
      expect(mined.success).toBe(true);
      expect(mined.paymaster.toLowerCase()).toBe(paymaster.toLowerCase());
      const charged = before - (await deposit());
      expect(charged).toBe(BigInt(mined.actualGasCost));

      // BUNDLER_SPONSORED_OPERATIONS_PER_DAY=1 on this stack: the second is refused before it reaches the mempool.
      const second = await sponsoredOperation(wallet, outsider);
      const limited = await send(member.key, second.rpc);
      expect(limited.body.error).toMatchObject({
        code: -32504,
        data: { limit: "operationsPerDay", usedOperations: 1, dapiError: { id: "SVC-16021" } },
      });
      expect(
        (
          await bundler(member.key, {
            jsonrpc: "2.0",
            id: 3,
            method: "eth_getUserOperationByHash",
            params: [second.hash],
          })
        ).body.result,
      ).toBeNull();
      expect(before - (await deposit())).toBe(charged);
      decidedWallet = wallet;
    });

    it("revoking sponsorship is a gas spender's decision too: a member gets 403, a gasManager stops the paymaster", async () => {
      const path = `/api/v2/smart-wallets/${decidedWallet}/sponsorship`;
      for (const attacker of [member, auditor]) {
        const refused = await call(attacker.key, "PUT", path, { sponsored: true });
        expect([refused.status, refused.body.code]).toEqual([403, "USER_NOT_AUTHORIZED"]);
        expect(refused.body.data).toMatchObject({ requiredPermission: "smartWallet:sponsor" });
      }
      const revoked = await call(decider.key, "PUT", path, { sponsored: false }, { prefer: "wait=60" });
      expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
      expect(revoked.body.data.status).toBe("COMPLETED");
      const gas = await call(decider.key, "GET", `/api/v2/smart-wallets/${decidedWallet}/gas-status`);
      expect(gas.body.data.sponsored).toBe(false);
      expect((await call(decider.key, "GET", `/api/v2/smart-wallets/${decidedWallet}`)).body.data.sponsored).toBe(
        false,
      );
    });

    it("a session provisions only with walletVerification; a member's session is refused on /api/rpc", async () => {
      const { op: ops } = ctx();
      const signIn = async (role: string) => {
        const password = `pw-${role}-paymaster`;
        const { email } = await ops.person(organizationId, role, { password, pincode: PIN });
        const res = await stack.api("/api/v2/auth/sign-in", {
          method: "POST",
          key: null,
          body: JSON.stringify({ email, password }),
        });
        expect(res.status).toBe(200);
        return res.headers
          .getSetCookie()
          .find((c) => c.startsWith("svc_session="))!
          .split(";")[0]!;
      };
      const rpc = async (cookie: string, input: Record<string, unknown>) => {
        const res = await fetch(`${stack.platform.baseUrl}/api/rpc/smartWallets/post`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json", origin: stack.platform.baseUrl, prefer: "wait=90" },
          body: JSON.stringify({ json: input }),
        });
        return { status: res.status, text: await res.text() };
      };
      const memberSession = await signIn("member");
      const asMember = await rpc(memberSession, {});
      expect(asMember.status).toBe(403);
      expect(asMember.text).toContain("USER_NOT_AUTHORIZED");

      const gasSession = await signIn("gasManager");
      const noPin = await rpc(gasSession, {});
      expect([noPin.status, noPin.text.includes("WALLET_VERIFICATION_REQUIRED")]).toEqual([400, true]);
      const wrongPin = await rpc(gasSession, {
        walletVerification: { verificationType: "PINCODE", secretVerificationCode: "000000" },
      });
      expect(wrongPin.text).toContain("WALLET_VERIFICATION_FAILED");
      const withPin = await rpc(gasSession, {
        walletVerification: { verificationType: "PINCODE", secretVerificationCode: PIN },
      });
      expect(withPin.status, withPin.text).toBe(200);
      expect(withPin.text).toContain('"sponsored":true');
    });
  });
}
