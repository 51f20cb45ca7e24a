// The token operations over HTTP against the real stack: servicing writes, refusals in the spec's envelope, the
// pre-check, the event log, holders, documents, metadata, permits, and the legacy reads.
import { decodeFunctionResult, encodeFunctionData, getAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenAbi } from "../abis/Token.ts";
import { organizationStack } from "./support/shared-stack.ts";
import { createDepositToken, json, type TestStack, waitForTerminal } from "./support/stack.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const CAROL = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
/** anvil's second default account (ALICE): signs the permit. */
const ALICE_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const lower = (a: string) => a.toLowerCase();

describe("token operations end to end", () => {
  let stack: TestStack;
  let token: string;
  let signer: string;
  const hashes: Record<string, string> = {};

  /** A write under Prefer: wait; returns the response (200 completed, or the refusal). */
  const write = (path: string, body: object | undefined, init: { method?: string; key?: string } = {}) =>
    stack.api(`/api/v2/tokens/${token}/${path}`, {
      method: init.method ?? "POST",
      headers: { prefer: "wait=30", ...(init.key ? { "idempotency-key": init.key } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  /** A write that must complete; remembers its transaction hash under `label`. */
  const done = async (label: string, path: string, body?: object, method?: string) => {
    const res = await write(path, body, { method });
    const payload = await json(res);
    expect(res.status, JSON.stringify(payload)).toBe(200);
    expect(payload.data.status).toBe("COMPLETED");
    hashes[label] = payload.meta.txHashes[0];
    return payload;
  };
  const get = async (path: string) => {
    const res = await stack.api(path);
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const holder = async (account: string) =>
    (await get(`/api/v2/tokens/${token}/holders?filter[account]=${account}`)).data[0];
  const precheck = async (query: string) => (await get(`/api/v2/tokens/${token}/pre-check?${query}`)).data;

  beforeAll(async () => {
    stack = await organizationStack("token-operations");
    token = await createDepositToken(stack, "Ops Deposit", "OPS");
    signer = (await get("/api/user/assets")).wallets[0];
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("mints, transfers a batch from the signing wallet, burns and force-transfers; the index follows", async () => {
    await done("mint", "mint", { recipients: [signer, ALICE], amounts: ["10000", "5000"] });
    await done("transfer", "transfer", { recipients: [ALICE, BOB], amounts: ["100", "200"] });
    expect(await holder(signer)).toMatchObject({ value: "9700", available: "9700", frozen: "0", isFrozen: false });
    expect(await holder(BOB)).toMatchObject({ account: { id: lower(BOB) }, value: "200" });

    // Idempotency-Key on an operation: a retry attaches to the first request.
    const first = await write("burn", { holders: [ALICE], amounts: ["50"] }, { key: "burn-1" });
    const again = await write("burn", { holders: [ALICE], amounts: ["50"] }, { key: "burn-1" });
    expect(first.status).toBe(200);
    expect(again.headers.get("idempotency-key")).toBe("burn-1");
    // The retry's answer is the first request's, and says so; the first is no replay.
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const burned = await json(first);
    hashes.burn = burned.meta.txHashes[0];
    expect((await json(again)).data.transactionId).toBe(burned.data.transactionId);
    expect(await holder(ALICE)).toMatchObject({ value: "5050" });

    // A forced transfer skips compliance but needs a verified receiver (ERC-3643): refused before anything is sent.
    const unverified = await write("forced-transfer", { from: ALICE, to: CAROL, amount: "1000" });
    const refusal = await json(unverified);
    expect(unverified.status, JSON.stringify(refusal)).toBe(422);
    expect(refusal).toMatchObject({ code: "TOKEN_RECEIVER_NOT_VERIFIED", data: { receiver: getAddress(CAROL) } });
    expect(refusal.message).toContain(getAddress(CAROL));
    const registered = await stack.api("/api/v2/system/identities", {
      method: "POST",
      headers: { prefer: "wait=30" },
      body: JSON.stringify({ wallet: CAROL, country: 56 }),
    });
    expect(registered.status, await registered.clone().text()).toBe(200);
    await done("forced", "forced-transfer", { from: ALICE, to: CAROL, amount: "1000" });
    expect(await holder(ALICE)).toMatchObject({ value: "4050" });
    expect(await holder(CAROL)).toMatchObject({ value: "1000" });
    const t = (await get(`/api/v2/token/${token}`)).data;
    expect(t).toMatchObject({ totalSupply: "14950", holderCount: 4 });

    // The mutation kinds and descriptions of the requests: a human summary in the token's units (2 decimals).
    const list = await get(
      "/api/v2/transaction-requests?filter[kind][inArray]=token.create,token.mint,token.transfer,token.burn,token.transfer.forced&sort=createdAt",
    );
    const described = Object.fromEntries(
      list.data.map((r: { kind: string; description: string }) => [r.kind, r.description]),
    );
    const short = (a: string) => `${getAddress(a).slice(0, 6)}…${getAddress(a).slice(-4)}`;
    expect(described).toEqual({
      "token.create": "Create token Ops Deposit (OPS) from template deposit",
      "token.mint": `Mint 150 OPS in total to ${short(signer)} and 1 other`,
      "token.transfer": `Transfer 3 OPS in total to ${short(ALICE)} and 1 other`,
      "token.burn": `Burn 0.5 OPS from ${short(ALICE)}`,
      "token.transfer.forced": `Force transfer 10 OPS from ${short(ALICE)} to ${short(CAROL)}`,
    });
  });

  it("a partial freeze refuses a transfer above the unfrozen balance with SVC-1106, as the pre-check says", async () => {
    await done("freezeTokens", "freeze-tokens", { account: signer, amount: "9000" });
    expect(await holder(signer)).toMatchObject({ value: "9700", frozen: "9000", available: "700" });

    expect(await precheck(`action=transfer&to=${BOB}&amount=700`)).toMatchObject({
      allowed: true,
      refusal: null,
      sender: expect.stringMatching(/^0x/),
    });
    const verdict = await precheck(`action=transfer&to=${BOB}&amount=800`);
    expect(verdict).toMatchObject({
      action: "transfer",
      allowed: false,
      refusal: {
        code: "TOKEN_FROZEN_BALANCE_EXCEEDED",
        id: "SVC-1106",
        status: 422,
        available: "700",
        requested: "800",
        contractError: { id: "InsufficientUnfrozenBalance" },
      },
    });

    const refused = await write("transfer", { recipients: [BOB], amounts: ["800"] });
    expect(refused.status).toBe(422);
    const body = await json(refused);
    expect(body).toMatchObject({
      code: "TOKEN_FROZEN_BALANCE_EXCEEDED",
      status: 422,
      data: {
        id: "SVC-1106",
        category: "domain",
        available: "700",
        requested: "800",
        contractError: { id: "InsufficientUnfrozenBalance" },
        transactionId: expect.any(String),
      },
    });
    // The 202 path records the same refusal on the request.
    const request = (await get(body.data.statusUrl.replace(/^\/v2/, "/api/v2"))).data;
    expect(request).toMatchObject({ status: "FAILED", contractError: { id: "InsufficientUnfrozenBalance" } });
    expect(request.contractError.why).toContain("frozen");

    // Burning into the frozen part is refused the same way; unfreezing more than is frozen is a contract error.
    expect((await json(await write("burn", { holders: [signer], amounts: ["701"] }))).data.id).toBe("SVC-1106");
    const over = await write("unfreeze-tokens", { account: signer, amount: "9001" });
    expect(over.status).toBe(422);
    expect((await json(over)).data.contractError.id).toBe("UnfreezeExceedsFrozen");

    await done("unfreezeTokens", "unfreeze-tokens", { account: signer, amount: "9000" });
    expect(await holder(signer)).toMatchObject({ frozen: "0", available: "9700" });
    expect(await precheck(`action=transfer&to=${BOB}&amount=800`)).toMatchObject({ allowed: true });
    expect((await precheck(`action=burn&from=${ALICE}&amount=999999`)).refusal).toMatchObject({
      code: "TOKEN_INSUFFICIENT_BALANCE",
      id: "SVC-1104",
    });
  });

  it("freezes an address: transfers to it are refused, the holder shows isFrozen; unfreezing lifts it", async () => {
    await done("freezeAddress", "freeze-address", { account: BOB });
    expect(await holder(BOB)).toMatchObject({ isFrozen: true });
    const refused = await write("transfer", { recipients: [BOB], amounts: ["1"] });
    expect(refused.status).toBe(409);
    expect(await json(refused)).toMatchObject({ code: "TOKEN_ACCOUNT_FROZEN", data: { account: BOB } });
    expect((await precheck(`action=mint&to=${BOB}&amount=1`)).refusal).toMatchObject({ code: "TOKEN_ACCOUNT_FROZEN" });
    const facets = (await get(`/api/v2/tokens/${token}/holders?filter[isFrozen]=true`)).meta;
    expect(facets.total).toBe(1);
    await done("unfreezeAddress", "unfreeze-address", { account: BOB });
    expect(await holder(BOB)).toMatchObject({ isFrozen: false });
  });

  it("pauses: transfers are refused with TOKEN_PAUSED until unpaused", async () => {
    await done("pause", "pause", undefined);
    const refused = await write("transfer", { recipients: [BOB], amounts: ["1"] });
    expect(refused.status).toBe(409);
    expect(await json(refused)).toMatchObject({ code: "TOKEN_PAUSED", data: { id: "SVC-1101" } });
    expect((await precheck(`action=mint&to=${ALICE}&amount=1`)).refusal).toMatchObject({ code: "TOKEN_PAUSED" });
    expect((await json(await write("pause", {}))).code).toBe("TOKEN_PAUSED");
    await done("unpause", "unpause", {});
    expect((await json(await write("unpause", undefined))).code).toBe("TOKEN_NOT_PAUSED");
    await done("transferAfterPause", "transfer", { recipients: [BOB], amounts: ["1"] });
  });

  it("sets and removes issuer metadata in one write; the index shows the result", async () => {
    await done("metadata", "metadata", { fields: { isin: "XS0000000001", prospectus: "ipfs://a" } }, "PATCH");
    expect((await get(`/api/v2/tokens/${token}/metadata`)).data.fields).toEqual({
      isin: "XS0000000001",
      prospectus: "ipfs://a",
    });
    await done("metadata2", "metadata", { fields: { prospectus: null, issuer: "Acme" } }, "PATCH");
    expect((await get(`/api/v2/tokens/${token}/metadata`)).data.fields).toEqual({
      isin: "XS0000000001",
      issuer: "Acme",
    });
    const absent = await write("metadata", { fields: { nope: null } }, { method: "PATCH" });
    expect(absent.status).toBe(404);
    expect(await json(absent)).toMatchObject({
      code: "CONTRACT_ERROR",
      data: { contractError: { id: "MetadataNotFound" } },
    });
    const empty = await write("metadata", { fields: {} }, { method: "PATCH" });
    expect(empty.status).toBe(400);
  });

  it("sets, lists and removes ERC-1643 documents", async () => {
    const documentHash = `0x${"ab".repeat(32)}`;
    await done("document", "documents/prospectus", { uri: "https://example.com/p.pdf", documentHash }, "PUT");
    await done("document2", "documents/terms", { uri: "https://example.com/t.pdf" }, "PUT");
    const listed = await get(`/api/v2/tokens/${token}/documents`);
    expect(listed.meta.total).toBe(2);
    expect(listed.data.find((d: { name: string }) => d.name === "prospectus")).toMatchObject({
      uri: "https://example.com/p.pdf",
      documentHash,
      nameHex: expect.stringMatching(/^0x70726f7370656374757300+$/),
    });
    await done("documentRemoved", "documents/prospectus", undefined, "DELETE");
    const after = await get(`/api/v2/tokens/${token}/documents`);
    expect(after.data.map((d: { name: string }) => d.name)).toEqual(["terms"]);
    const absent = await write("documents/prospectus", undefined, { method: "DELETE" });
    expect(absent.status).toBe(404);
    const tooLong = await write("documents/".concat("x".repeat(33)), { uri: "u" }, { method: "PUT" });
    expect(tooLong.status).toBe(400);
  });

  it("refuses a permit on a token without the permit feature, before anything is sent", async () => {
    const res = await write("permits", {
      owner: ALICE,
      spender: BOB,
      value: "1",
      deadline: "9999999999",
      signature: `0x${"11".repeat(64)}1b`,
    });
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({
      code: "TOKEN_FEATURE_NOT_ATTACHED",
      data: { id: "SVC-0306", featureId: "permit", features: [] },
    });
    expect((await write("permits", { owner: ALICE })).status).toBe(400);
  });

  it("relays a holder-signed permit on a token with the permit feature; approves from the signing wallet", async () => {
    const created = await stack.api("/api/v2/tokens", {
      method: "POST",
      headers: { prefer: "wait=30" },
      body: JSON.stringify({ templateId: "stablecoin", name: "Permit Dollar", symbol: "PUSD" }),
    });
    expect(created.status, await created.clone().text()).toBe(200);
    const stable = (await json(created)).data.tokenAddress as `0x${string}`;
    const allowance = async (owner: string, spender: string) => {
      const data = encodeFunctionData({
        abi: TokenAbi,
        functionName: "allowance",
        args: [owner as Hex, spender as Hex],
      });
      const result = (await stack.rpc("eth_call", [{ to: stable, data }, "latest"])) as Hex;
      return decodeFunctionResult({ abi: TokenAbi, functionName: "allowance", data: result });
    };
    const deadline = 4_000_000_000n;
    const signature = await privateKeyToAccount(ALICE_KEY).signTypedData({
      domain: { name: "Permit Dollar", version: "1", chainId: 31337, verifyingContract: stable },
      types: {
        Permit: [
          { name: "owner", type: "address" },
          { name: "spender", type: "address" },
          { name: "value", type: "uint256" },
          { name: "nonce", type: "uint256" },
          { name: "deadline", type: "uint256" },
        ],
      },
      primaryType: "Permit",
      message: { owner: ALICE, spender: BOB, value: 1234n, nonce: 0n, deadline },
    });
    const permit = { owner: ALICE, spender: BOB, value: "1234", deadline: deadline.toString(), signature };
    const res = await stack.api(`/api/v2/tokens/${stable}/permits`, {
      method: "POST",
      headers: { prefer: "wait=30" },
      body: JSON.stringify(permit),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).data).toMatchObject({ kind: "token.permit", status: "COMPLETED" });
    expect(await allowance(ALICE, BOB)).toBe(1234n);
    // The same signature again: its nonce is used, the contract refuses it.
    const replay = await stack.api(`/api/v2/tokens/${stable}/permits`, {
      method: "POST",
      headers: { prefer: "wait=30" },
      body: JSON.stringify(permit),
    });
    expect(replay.status).toBe(422);
    expect((await json(replay)).data.contractError.id).toBe("ERC2612InvalidSigner");

    const approved = await stack.api(`/api/v2/tokens/${stable}/approvals`, {
      method: "POST",
      headers: { prefer: "wait=30" },
      body: JSON.stringify({ spender: CAROL, amount: "77" }),
    });
    expect(approved.status).toBe(200);
    expect(await allowance(signer, CAROL)).toBe(77n);
    const noFeature = await write("redemptions", { amount: "1" });
    expect(noFeature.status).toBe(404);
    expect(await json(noFeature)).toMatchObject({
      code: "TOKEN_FEATURE_NOT_ATTACHED",
      data: { featureId: "maturity-redemption" },
    });
  });

  it("answers the pre-check's input errors with BAD_REQUEST", async () => {
    for (const query of [
      `action=mint&amount=1`,
      `action=burn&to=${BOB}&from=${ALICE}&amount=1`,
      `action=transfer&to=${BOB}`,
      `action=swap&to=${BOB}&amount=1`,
    ]) {
      const res = await stack.api(`/api/v2/tokens/${token}/pre-check?${query}`);
      expect(res.status, query).toBe(400);
      expect((await json(res)).code).toBe("BAD_REQUEST");
    }
    expect(await precheck(`action=transfer&from=${ALICE}&to=${CAROL}&amount=10`)).toMatchObject({
      allowed: true,
      sender: ALICE,
      from: ALICE,
    });
  });

  it("lists the token's events newest first, with the collection filters and the eventName facet", async () => {
    const all = await get(`/api/v2/tokens/${token}/events?page[limit]=200`);
    const names = new Set(all.data.map((e: { eventName: string }) => e.eventName));
    for (const name of [
      "MintCompleted",
      "TransferCompleted",
      "BurnCompleted",
      "ForcedTransfer",
      "TokensFrozen",
      "TokensUnfrozen",
      "AddressFrozen",
      "Paused",
      "Unpaused",
      "MetadataSet",
      "MetadataRemoved",
      "DocumentUpdated",
      "DocumentRemoved",
    ]) {
      expect(names, name).toContain(name);
    }
    const times = all.data.map((e: { blockNumber: string }) => Number(e.blockNumber));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.data[0]).toMatchObject({
      eventName: "DocumentRemoved",
      emitter: { id: lower(token) },
      sender: { id: signer },
      txIndex: expect.stringMatching(/^\d+$/),
      blockTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(all.meta.facets.eventName).toEqual(
      expect.arrayContaining([
        { value: "MintCompleted", count: 2 },
        { value: "Paused", count: 1 },
      ]),
    );

    const forced = await get(`/api/v2/tokens/${token}/events?filter[transactionHash]=${hashes.forced}`);
    // The forced transfer event (no partial freeze to release on ALICE).
    expect(forced.data.map((e: { eventName: string }) => e.eventName)).toEqual(["ForcedTransfer"]);
    expect(forced.data[0].values).toEqual([
      { id: expect.any(String), name: "sender", value: expect.stringMatching(/^0x/i) },
      { id: expect.any(String), name: "from", value: lower(ALICE) },
      { id: expect.any(String), name: "to", value: lower(CAROL) },
      { id: expect.any(String), name: "amount", value: "1000" },
    ]);

    const involvingCarol = await get(`/api/v2/tokens/${token}/events?filter[involved]=${CAROL}`);
    expect(involvingCarol.data.map((e: { eventName: string }) => e.eventName)).toEqual(["ForcedTransfer"]);
    const transfers = await get(
      `/api/v2/tokens/${token}/events?filter[eventName]=TransferCompleted&filter[sender]=${signer.toUpperCase().replace("0X", "0x")}&sort=blockNumber`,
    );
    expect(transfers.meta.total).toBe(3);
    expect(Number(transfers.data[0].blockNumber)).toBeLessThan(Number(transfers.data[2].blockNumber));
    const future = await get(`/api/v2/tokens/${token}/events?filter[blockTimestamp][gte]=2999-01-01`);
    expect(future.meta.total).toBe(0);
    const past = await get(`/api/v2/tokens/${token}/events?filter[createdAt][lt]=2999-01-01T00:00:00Z`);
    expect(past.meta.total).toBe(all.meta.total);
    const bad = await stack.api(`/api/v2/tokens/${token}/events?filter[involved][gt]=1`);
    expect(bad.status).toBe(400);
    expect((await json(bad)).code).toBe("COLLECTION_FILTER_OPERATOR_UNKNOWN");
  });

  it("lists holders with value, available, frozen and isFrozen (raw units), largest first", async () => {
    const list = await get(`/api/v2/tokens/${token}/holders`);
    expect(list.meta.total).toBe(4);
    const values = list.data.map((h: { value: string }) => BigInt(h.value));
    expect(values).toEqual([...values].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    expect(list.data[0]).toEqual({
      account: { id: signer },
      value: "9699",
      available: "9699",
      frozen: "0",
      isFrozen: false,
      lastUpdatedAt: expect.any(String),
    });
    expect(list.meta.facets.isFrozen).toEqual([{ value: false, count: 4 }]);
  });

  it("serves the legacy reads: one holder, the token's events with their filters, the user's assets and events", async () => {
    expect((await get(`/api/token/${token}/holder?holderAddress=${ALICE}`)).holder).toEqual({
      account: { id: lower(ALICE) },
      value: "40.5",
      available: "40.5",
      frozen: "0",
      isFrozen: false,
      lastUpdatedAt: expect.any(String),
    });
    const nobody = await get(`/api/token/${token}/holder?holderAddress=0x0000000000000000000000000000000000000001`);
    expect(nobody.holder).toMatchObject({ value: "0", available: "0", isFrozen: false });

    const base = `/api/token/${token}/events`;
    const byName = await get(`${base}?eventNames=Paused&eventNames=Unpaused`);
    expect(byName.events.map((e: { eventName: string }) => e.eventName)).toEqual(["Unpaused", "Paused"]);
    expect(byName.totalCount).toBe(2);
    expect(byName.events[0]).toMatchObject({
      id: expect.any(String),
      txIndex: expect.any(String),
      blockNumber: expect.any(String),
      blockTimestamp: expect.any(String),
      transactionHash: hashes.unpause,
      emitter: { id: lower(token) },
      sender: { id: signer },
      values: [{ name: "sender", value: expect.any(String) }],
    });
    const byHash = await get(`${base}?transactionHashes=${hashes.mint}&transactionHashes=${hashes.burn}`);
    expect(byHash.events.map((e: { eventName: string }) => e.eventName)).toEqual([
      "BurnCompleted",
      "MintCompleted",
      "MintCompleted",
    ]);
    expect(byHash.events[0].values.find((v: { name: string }) => v.name === "amount").value).toMatch(/^\d+$/);
    const byWallet = await get(`${base}?walletAddress=${CAROL}`);
    expect(byWallet.events.map((e: { eventName: string }) => e.eventName)).toEqual(["ForcedTransfer"]);
    const bySender = await get(`${base}?senderAddress=${ALICE}&limit=1`);
    expect(bySender.totalCount).toBe(0);
    const window = await get(`${base}?fromDate=2000-01-01&toDate=2999-01-01T00:00:00Z&limit=2&offset=1`);
    expect(window.events).toHaveLength(2);
    expect(await get(`${base}?fromDate=2999-01-01`)).toEqual({ events: [], totalCount: 0 });

    const both = await stack.api(`${base}?senderAddress=${ALICE}&walletAddress=${BOB}`);
    expect(both.status).toBe(400);
    const error = (await json(both)).error;
    expect(error).toMatchObject({ id: "SVC-0001", status: 400, details: { code: "BAD_REQUEST" } });
    expect(error.message).toContain("senderAddress");
    expect(error.message).toContain("walletAddress");
    expect(error.details.issues.map((i: { path: string }) => i.path)).toEqual(["senderAddress", "walletAddress"]);
    expect((await stack.api(`${base}?fromDate=yesterday`)).status).toBe(400);

    const assets = await get("/api/user/assets");
    // The organisation's signer and the owner's own custody wallet (every member has one).
    expect(assets.wallets).toHaveLength(2);
    expect(assets.wallets[0]).toBe(signer);
    expect(assets.assets).toEqual([
      {
        token: { id: lower(token), name: "Ops Deposit", symbol: "OPS", decimals: 2, type: "deposit" },
        balance: expect.objectContaining({ account: { id: signer }, value: "96.99" }),
      },
    ]);
    expect((await get(`/api/user/assets?wallet=${signer}`)).totalCount).toBe(1);
    const foreign = await stack.api(`/api/user/assets?wallet=${ALICE}`);
    expect(foreign.status).toBe(403);
    expect((await json(foreign)).error).toMatchObject({ status: 403, details: { code: "FORBIDDEN" } });

    const mine = await get("/api/user/events?limit=500");
    expect(mine.totalCount).toBeGreaterThan(5);
    expect(
      mine.events.every(
        (e: { sender: { id: string }; involved: { id: string }[] }) =>
          e.sender.id === signer || e.involved.some((i) => i.id === signer),
      ),
    ).toBe(true);
  });

  it("answers 202 by default and follows through the status URL", async () => {
    const res = await stack.api(`/api/v2/tokens/${token}/transfer`, {
      method: "POST",
      body: JSON.stringify({ recipients: [ALICE], amounts: ["1"] }),
    });
    expect(res.status).toBe(202);
    const accepted = await json(res);
    expect(res.headers.get("location")).toBe(accepted.statusUrl);
    expect(await waitForTerminal(stack, accepted.statusUrl)).toMatchObject({
      kind: "token.transfer",
      status: "COMPLETED",
      description: `Transfer 0.01 OPS to ${ALICE.slice(0, 6)}…${ALICE.slice(-4)}`,
    });
    const missing = await stack.api("/api/v2/tokens/0x0000000000000000000000000000000000000001/pause", {
      method: "POST",
    });
    expect(missing.status).toBe(404);
    expect((await json(missing)).code).toBe("TOKEN_NOT_FOUND");
  });

  it("describes every request in a sentence, never with its calldata", async () => {
    const all = await get("/api/v2/transaction-requests?page[limit]=200");
    expect(all.data.length).toBeGreaterThan(10);
    for (const { kind, description } of all.data as { kind: string; description: string }[]) {
      expect(description.length, `${kind}: ${description}`).toBeLessThanOrEqual(200);
      expect(description, kind).not.toMatch(/0x[0-9a-fA-F]{41,}/);
    }
    // A write without its own summary: its kind, the call abridged, the target.
    const metadata = all.data.find((r: { kind: string }) => r.kind.startsWith("token.metadata"));
    expect(metadata.description.startsWith(`${metadata.kind}: `), metadata.description).toBe(true);
    expect(metadata.description).toMatch(/\) on 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}$/);
  });

  it("answers a known path with an unsupported method 405 METHOD_NOT_ALLOWED, with Allow", async () => {
    const holders = await stack.api(`/api/v2/tokens/${token}/holders`, { method: "POST", body: "{}" });
    expect(holders.status).toBe(405);
    expect(holders.headers.get("allow")).toBe("GET, HEAD");
    const body = await json(holders);
    expect(body).toMatchObject({
      code: "METHOD_NOT_ALLOWED",
      status: 405,
      data: { id: "SVC-0007", allow: ["GET", "HEAD"] },
    });
    const tokens = await stack.api("/api/v2/tokens", { method: "DELETE" });
    expect([tokens.status, tokens.headers.get("allow")]).toEqual([405, "GET, HEAD, POST"]);
    const unknown = await stack.api(`/api/v2/tokens/${token}/nothing-here`);
    expect([unknown.status, (await json(unknown)).code]).toEqual([404, "NOT_FOUND"]);
  });
});
