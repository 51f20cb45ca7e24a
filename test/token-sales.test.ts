// Token sales end to end over HTTP against the real stack. Organisation A issues EQD and sells it for EURD (both
// deposit tokens of its system) to two of its people (their own custody wallets) and to organisation B. Sale 1
// reaches its soft cap: purchases up to the hard cap, one beyond it refused with the amount left; after the end the
// buyers take their tokens and the issuer the proceeds, balances exact. Sale 2 misses its soft cap: the buyers get
// their payment back exactly and no token moves. B sees sale 2 only once it purchased; the feeds show the purchases.
// A third sale is paid in an ERC-20 deployed outside the platform, registered and approved through the API.
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  http,
  type LocalAccount,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileContracts } from "../scripts/contracts/compile.ts";
import { type ApiFlows, anvilAccount, apiFlows, isoSeconds, keyedApi } from "./support/api-flows.ts";
import { type Member, type Operator, operator } from "./support/organizations.ts";
import { organizationStack } from "./support/shared-stack.ts";
import { stackChain, type TestStack } from "./support/stack.ts";

const BASE = "/api/v2/addons/token-sales";
const PRICE_2_5 = (25n * 10n ** 17n).toString(); // 2.5 payment units per token unit
const PRICE_1 = (10n ** 18n).toString();
const NOWHERE = "0x000000000000000000000000000000000000dEaD";

describe("token sales, end to end over HTTP", () => {
  let stack: TestStack;
  let ops: Operator;
  let flows: ApiFlows;
  let ann: Member; // A's people who buy with their own wallets
  let ben: Member;
  let ownerB: Member;
  let signerA: string;
  let signerB: Address;
  let signerBAccount: LocalAccount;
  let eqd: Address; // sold
  let eurd: Address; // paid with
  let sale1: Address;
  let sale2: Address;

  const { call, write } = keyedApi(
    () => stack,
    () => stack.platform.credentials.apiKey,
  );
  /** A person's write, signed by their own wallet. */
  const as = (member: Member) => ({
    call: (method: string, path: string, body: Record<string, unknown> = {}) =>
      call(method, path, { ...body, accountWalletId: member.wallet }, member.key),
    write: (method: string, path: string, body: Record<string, unknown> = {}) =>
      write(method, path, { ...body, accountWalletId: member.wallet }, member.key),
  });
  const sale = async (address: string, key?: string) => await call("GET", `${BASE}/${address}`, undefined, key);
  const balance = async (token: string, holder: string) => (await flows.balances(token))[holder.toLowerCase()] ?? "0";

  beforeAll(async () => {
    stack = await organizationStack("token-sales", "clock-moving");
    ops = operator(stack);
    flows = apiFlows(stack);
    const orgA = stack.platform.credentials.organizationId;
    // supplyManager: may approve a spender of its own wallet's tokens (token:transfer) and take part in sales.
    [ann, ben] = [await ops.member(orgA, "supplyManager", "Ann"), await ops.member(orgA, "supplyManager", "Ben")];
    for (const wallet of [ann.wallet, ben.wallet]) await stack.rpc("anvil_setBalance", [wallet, "0x8ac7230489e80000"]);
    const orgB = await ops.organization("Buyer B");
    ownerB = await ops.member(orgB, "owner", "Bo");
    signerBAccount = await ops.signerAccount(orgB);
    signerB = signerBAccount.address;
    signerA = (await ops.signerAccount(orgA)).address.toLowerCase();

    eqd = await flows.createToken({ templateId: "deposit", name: "Equity Deposit", symbol: "EQD" });
    eurd = await flows.createToken({ templateId: "deposit", name: "Euro Deposit", symbol: "EURD" });
    await write("POST", `/api/v2/tokens/${eqd}/mint`, { recipients: [signerA], amounts: ["5000"] });
    await write("POST", `/api/v2/tokens/${eurd}/mint`, {
      recipients: [ann.wallet, ben.wallet, signerB],
      amounts: ["5000", "5000", "500"],
    });
  }, 240_000);
  afterAll(async () => {
    await ops?.close();
    await stack?.stop();
  });

  it("refuses a token or payment asset the system does not know, bad terms, and unknown sales", async () => {
    const now = await flows.chainNow();
    const terms = {
      tokenAddress: eqd,
      paymentAsset: eurd,
      priceWad: PRICE_1,
      hardCap: "100",
      startDate: isoSeconds(now + 60),
      endDate: isoSeconds(now + 3600),
    };
    const refused = async (body: Record<string, unknown>) => (await call("POST", BASE, { ...terms, ...body })).body;
    expect(await refused({ tokenAddress: NOWHERE })).toMatchObject({ status: 422, code: "TOKEN_SALE_TOKEN_INVALID" });
    expect(await refused({ paymentAsset: NOWHERE })).toMatchObject({
      status: 422,
      code: "TOKEN_SALE_PAYMENT_ASSET_INVALID",
    });
    const caps = await refused({ softCap: "101" });
    expect(caps).toMatchObject({ status: 422, code: "TOKEN_SALE_INVALID_PARAMETERS" });
    expect(caps.message).toContain("softCap");
    expect(await refused({ endDate: isoSeconds(now - 10) })).toMatchObject({ code: "TOKEN_SALE_INVALID_PARAMETERS" });
    expect((await call("POST", BASE, { ...terms, priceWad: "-1" })).status).toBe(400);
    expect((await sale("0x1234")).status).toBe(400);
    expect((await sale(NOWHERE)).body).toMatchObject({ status: 404, code: "TOKEN_SALE_NOT_FOUND" });
  });

  it("creates two sales, upcoming; the issuer grants each an allowance for its hard cap", async () => {
    const now = await flows.chainNow();
    const dates = { startDate: isoSeconds(now + 60), endDate: isoSeconds(now + 3600) };
    const base = { tokenAddress: eqd, paymentAsset: eurd, hardCap: "1000", ...dates };
    sale1 = getAddress((await write("POST", BASE, { ...base, priceWad: PRICE_2_5, softCap: "400" })).saleAddress);
    sale2 = getAddress((await write("POST", BASE, { ...base, priceWad: PRICE_1, softCap: "500" })).saleAddress);

    const before = await sale(sale1);
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({
      address: sale1,
      issuer: getAddress(signerA),
      token: { address: eqd, symbol: "EQD", decimals: 2 },
      paymentAsset: { address: eurd, symbol: "EURD", decimals: 2 },
      priceWad: PRICE_2_5,
      hardCap: "1000",
      softCap: "400",
      ...dates,
      sold: "0",
      raised: "0",
      status: "UPCOMING",
      proceedsWithdrawn: false,
      issuerAllowance: { granted: "0", required: "1000", sufficient: false },
      purchases: [],
    });
    const early = await as(ann).call("POST", `${BASE}/${sale1}/purchases`, { amount: "1" });
    expect(early.body).toMatchObject({ status: 409, code: "TOKEN_SALE_NOT_OPEN", data: { status: "UPCOMING" } });

    for (const spender of [sale1, sale2]) {
      await write("POST", `/api/v2/tokens/${eqd}/approvals`, { spender, amount: "1000" });
    }
    expect((await sale(sale1)).body.data.issuerAllowance).toEqual({
      granted: "1000",
      required: "1000",
      sufficient: true,
    });
  });

  it("sale 1 takes payments up to its hard cap and refuses one beyond it with the amount left", async () => {
    await flows.advanceTime(120);
    const purchases = `${BASE}/${sale1}/purchases`;
    const unpaid = await as(ben).call("POST", purchases, { amount: "10" });
    expect(unpaid.body).toMatchObject({
      status: 422,
      code: "ERC20_ALLOWANCE_INSUFFICIENT",
      data: { asset: eurd, spender: sale1, required: "25", allowance: "0" },
    });
    for (const buyer of [ann, ben]) {
      await as(buyer).write("POST", `/api/v2/tokens/${eurd}/approvals`, { spender: sale1, amount: "5000" });
    }
    await as(ann).write("POST", purchases, { amount: "601" }); // 1502.5, rounded up
    const beyond = await as(ben).call("POST", purchases, { amount: "400" });
    expect(beyond.body).toMatchObject({
      status: 422,
      code: "TOKEN_SALE_HARD_CAP_EXCEEDED",
      data: { available: "399" },
    });
    expect(beyond.body.message).toContain("399");
    await as(ben).write("POST", purchases, { amount: "399" }); // 997.5, rounded up
    const soldOut = await as(ben).call("POST", purchases, { amount: "1" });
    expect(soldOut.body).toMatchObject({ code: "TOKEN_SALE_HARD_CAP_EXCEEDED", data: { available: "0" } });

    const { data } = (await sale(sale1)).body;
    expect(data).toMatchObject({ status: "SOLD_OUT", sold: "1000", remaining: "0", raised: "2501" });
    expect(data.purchases).toEqual([
      { buyer: getAddress(ann.wallet), amount: "601", payment: "1503", withdrawn: false, refunded: false },
      { buyer: getAddress(ben.wallet), amount: "399", payment: "998", withdrawn: false, refunded: false },
    ]);
    const tooEarly = await as(ann).call("POST", `${BASE}/${sale1}/withdrawals`);
    expect(tooEarly.body).toMatchObject({ status: 409, code: "TOKEN_SALE_NOT_ENDED" });
  });

  it("sale 2 is public: organisation B reads it only once its wallet purchased", async () => {
    await as(ann).write("POST", `/api/v2/tokens/${eurd}/approvals`, { spender: sale2, amount: "100" });
    await as(ann).write("POST", `${BASE}/${sale2}/purchases`, { amount: "100" });
    expect((await sale(sale2, ownerB.key)).body).toMatchObject({ status: 404, code: "TOKEN_SALE_NOT_FOUND" });
    // B's signer approves A's token directly (the approvals route serves the caller's own system's tokens).
    const wallet = createWalletClient({ account: signerBAccount, chain: stackChain(stack), transport: http() });
    const hash = await wallet.writeContract({
      abi: erc20Abi,
      address: eurd,
      functionName: "approve",
      args: [sale2, 50n],
    });
    for (let i = 0; !(await stack.rpc("eth_getTransactionReceipt", [hash])) && i < 100; i++) await sleep(50);
    await write("POST", `${BASE}/${sale2}/purchases`, { amount: "50" }, ownerB.key);
    const seen = await sale(sale2, ownerB.key);
    expect(seen.status).toBe(200);
    expect(seen.body.data).toMatchObject({ status: "OPEN", sold: "150", raised: "150" });
    expect(seen.body.data.purchases.map((p: { buyer: string }) => p.buyer)).toEqual([getAddress(ann.wallet), signerB]);
  });

  it("after sale 1 succeeds, the buyers take their tokens and the issuer the proceeds, balances exact", async () => {
    await flows.advanceTime(3600);
    expect((await sale(sale1)).body.data.status).toBe("ENDED_SUCCESS");
    const eurdIssuer = BigInt(await balance(eurd, signerA));
    await as(ann).write("POST", `${BASE}/${sale1}/withdrawals`);
    await as(ben).write("POST", `${BASE}/${sale1}/withdrawals`);
    await write("POST", `${BASE}/${sale1}/withdrawals`);
    const again = await as(ann).call("POST", `${BASE}/${sale1}/withdrawals`);
    expect(again.body).toMatchObject({ status: 409, code: "TOKEN_SALE_NOTHING_TO_WITHDRAW" });

    expect(await balance(eqd, ann.wallet)).toBe("601");
    expect(await balance(eqd, ben.wallet)).toBe("399");
    expect(await balance(eqd, signerA)).toBe("4000");
    expect(BigInt(await balance(eurd, signerA)) - eurdIssuer).toBe(2501n);
    expect(await balance(eurd, ann.wallet)).toBe(String(5000 - 1503 - 100));
    expect(await balance(eurd, ben.wallet)).toBe(String(5000 - 998));
    expect(await balance(eurd, sale1)).toBe("0");
    const { data } = (await sale(sale1)).body;
    expect(data).toMatchObject({ proceedsWithdrawn: true, issuerAllowance: { granted: "0", required: "0" } });
    expect(data.purchases.map((p: { withdrawn: boolean }) => p.withdrawn)).toEqual([true, true]);
  });

  it("after sale 2 misses its soft cap, the buyers are refunded exactly and no token moves", async () => {
    expect((await sale(sale2)).body.data.status).toBe("ENDED_REFUNDING");
    const issuerGets = await call("POST", `${BASE}/${sale2}/withdrawals`, {});
    expect(issuerGets.body).toMatchObject({ status: 409, code: "TOKEN_SALE_NOTHING_TO_WITHDRAW" });
    const eqdBefore = await flows.balances(eqd);
    await as(ann).write("POST", `${BASE}/${sale2}/withdrawals`);
    await write("POST", `${BASE}/${sale2}/withdrawals`, {}, ownerB.key);

    expect(await balance(eurd, ann.wallet)).toBe(String(5000 - 1503));
    expect(await balance(eurd, signerB)).toBe("500");
    expect(await balance(eurd, sale2)).toBe("0");
    expect(await flows.balances(eqd)).toEqual(eqdBefore);
    const { data } = (await sale(sale2, ownerB.key)).body;
    expect(data.purchases).toEqual([
      { buyer: getAddress(ann.wallet), amount: "100", payment: "100", withdrawn: false, refunded: true },
      { buyer: signerB, amount: "50", payment: "50", withdrawn: false, refunded: true },
    ]);
    expect(data.issuerAllowance).toMatchObject({ granted: "1000", sufficient: true });
  });

  it("shows a buyer's purchases in its participant and account activity feeds", async () => {
    const purchased = (body: { data: { eventName: string; values?: { name: string; value: string }[] }[] }) =>
      body.data.filter((e) => e.eventName === "TokenSalePurchased");
    const participant = await call(
      "GET",
      `/api/v2/participants/${ann.userId}/activities?page[limit]=200`,
      undefined,
      ann.key,
    );
    expect(participant.status).toBe(200);
    expect(purchased(participant.body)).toHaveLength(2);
    const account = await call("GET", `/api/v2/system/accounts/${ann.wallet}/activities?page[limit]=200`);
    expect(account.status).toBe(200);
    expect(purchased(account.body)).toHaveLength(2);
    const names = new Set(account.body.data.map((e: { eventName: string }) => e.eventName));
    for (const name of ["TokenSaleTokensWithdrawn", "TokenSaleRefunded"]) expect(names.has(name)).toBe(true);
  });
});

describe("a token sale paid in a registered external token", () => {
  it("takes a payment in an ERC-20 the platform did not issue, once registered and approved through the API", async () => {
    const stack = await organizationStack("token-sales", "clock-moving");
    const ops = operator(stack);
    try {
      const flows = apiFlows(stack);
      const { call, write } = keyedApi(
        () => stack,
        () => stack.platform.credentials.apiKey,
      );
      const buyer = await ops.member(stack.platform.credentials.organizationId, "supplyManager", "Uma");
      await stack.rpc("anvil_setBalance", [buyer.wallet, "0x8ac7230489e80000"]);
      // A stablecoin deployed outside the platform (an account the platform never signs with), minted to the buyer.
      const { MockERC20 } = compileContracts().contracts;
      const chain = stackChain(stack);
      const deployer = createWalletClient({ account: anvilAccount(8), chain, transport: http() });
      const client = createPublicClient({ chain, transport: http() });
      const deployed = await client.waitForTransactionReceipt({
        hash: await deployer.deployContract({ ...MockERC20, args: ["USD Coin", "USDC", 6] }),
      });
      const usdc = getAddress(deployed.contractAddress!);
      await client.waitForTransactionReceipt({
        hash: await deployer.writeContract({
          abi: MockERC20.abi,
          address: usdc,
          functionName: "mint",
          args: [getAddress(buyer.wallet), 1_000_000n],
        }),
      });
      await write("POST", "/api/v2/external-tokens", { tokenAddress: usdc, tokenType: "stablecoin" });

      const signer = (await ops.signerAccount(stack.platform.credentials.organizationId)).address;
      const eqd = await flows.createToken({ templateId: "deposit", name: "Equity Deposit", symbol: "EQD" });
      await write("POST", `/api/v2/tokens/${eqd}/mint`, { recipients: [signer], amounts: ["100"] });
      const now = await flows.chainNow();
      const { saleAddress } = await write("POST", BASE, {
        tokenAddress: eqd,
        paymentAsset: usdc,
        priceWad: (10n ** 22n).toString(), // 10,000 USDC units (0.01 USDC) per EQD unit
        hardCap: "100",
        startDate: isoSeconds(now + 60),
        endDate: isoSeconds(now + 3600),
      });
      await flows.advanceTime(120);
      const asBuyer = { accountWalletId: buyer.wallet };
      await write(
        "POST",
        `/api/v2/external-tokens/${usdc}/approvals`,
        { ...asBuyer, spender: saleAddress, amount: "250000" },
        buyer.key,
      );
      await write("POST", `${BASE}/${saleAddress}/purchases`, { ...asBuyer, amount: "25" }, buyer.key);
      const read = await call("GET", `${BASE}/${saleAddress}`);
      expect(read.body.data).toMatchObject({
        paymentAsset: { address: usdc, symbol: "USDC", decimals: 6 },
        sold: "25",
        raised: "250000",
      });
      expect(
        await client.readContract({ abi: erc20Abi, address: usdc, functionName: "balanceOf", args: [saleAddress] }),
      ).toBe(250_000n);
    } finally {
      await ops.close();
      await stack.stop();
    }
  }, 240_000);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
