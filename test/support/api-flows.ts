// HTTP-only building blocks for end-to-end flows against a booted stack (test/support/stack.ts): writes answered
// once COMPLETED (Prefer: wait), token creation, identities, compliance templates, balances, events, the pre-check,
// the chain clock, and the few module calls that have no API route yet (made by an unlocked anvil account).
import {
  type Abi,
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  type TypedDataDomain,
  type TypedDataParameter,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { expect } from "vitest";
import { json, type TestStack } from "./stack.ts";

/** anvil's well-known test mnemonic; its accounts 1..5 are funded and unlocked (0 deploys: left to the platform). */
const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";
export const anvilAccount = (index: number) => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
export const ALICE = getAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
export const BOB = getAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
export const CAROL = getAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906");
export const DAVE = getAddress("0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65");
export const EVE = getAddress("0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc");

/** ISO 3166-1 numeric codes used by the flows. */
export const COUNTRY = { BELGIUM: 56, GERMANY: 276, UNITED_STATES: 840 } as const;

export const DAY = 86_400;

// biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON
type Json = any;

export interface Answer {
  status: number;
  body: Json;
}

export interface TokenEventView {
  eventName: string;
  emitter: string;
  values: Record<string, string>;
}

export function apiFlows(stack: TestStack) {
  let signer: Address | undefined;

  /** A request as the API answers it (mutations wait for their outcome: Prefer: wait=60). */
  async function call(method: string, path: string, body?: unknown): Promise<Answer> {
    const res = await stack.api(path, {
      method,
      headers: method === "GET" ? {} : { prefer: "wait=60" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  /** A mutation that must complete; its completed envelope's `data`. */
  async function write(method: string, path: string, body?: unknown): Promise<Json> {
    const answer = await call(method, path, body);
    if (answer.status !== 200 || answer.body?.data?.status !== "COMPLETED") {
      throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answer.body.data;
  }

  /** A read that must succeed; the whole body. */
  async function get(path: string): Promise<Json> {
    const answer = await call("GET", path);
    if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  const flows = {
    call,
    write,
    get,

    /** The organisation's signing wallet (what mints, transfers and governs), read from a completed request. */
    async signer(): Promise<Address> {
      if (signer) return signer;
      const list = await get("/api/v2/transaction-requests?page[limit]=1");
      if (!list.data.length) throw new Error("signer(): no transaction request yet; make a write first");
      signer = getAddress(list.data[0].fromAddress);
      return signer;
    },

    /** POST /api/v2/tokens; the new token's address. */
    async createToken(body: Record<string, unknown>): Promise<Address> {
      const done = await write("POST", "/api/v2/tokens", body);
      return getAddress(done.tokenAddress);
    },

    /** The token record (GET /api/v2/token/{address}). */
    async token(address: string): Promise<Json> {
      return (await get(`/api/v2/token/${address}`)).data;
    },

    mint: (token: string, recipients: string[], amounts: (string | bigint | number)[]) =>
      call("POST", `/api/v2/tokens/${token}/mint`, { recipients, amounts: amounts.map(String) }),
    transfer: (token: string, recipients: string[], amounts: (string | bigint | number)[]) =>
      call("POST", `/api/v2/tokens/${token}/transfer`, { recipients, amounts: amounts.map(String) }),
    burn: (token: string, holders: string[], amounts: (string | bigint | number)[]) =>
      call("POST", `/api/v2/tokens/${token}/burn`, { holders, amounts: amounts.map(String) }),

    /** POST /api/v2/system/identities; the wallet's identity contract. */
    async registerIdentity(wallet: string, country: number): Promise<Address> {
      const done = await write("POST", "/api/v2/system/identities", { wallet, country });
      return getAddress(done.identity);
    },

    /** Creates an organisation compliance template and publishes it; its id. */
    async publishComplianceTemplate(body: Record<string, unknown>): Promise<string> {
      const created = await call("POST", "/api/v2/settings/compliance-templates", body);
      if (created.status !== 201)
        throw new Error(`template creation answered ${created.status}: ${JSON.stringify(created.body)}`);
      const id = created.body.data.id as string;
      const published = await call("PUT", `/api/v2/settings/compliance-templates/${id}/publish`);
      if (published.status !== 200 || published.body.data.isDraft !== false) {
        throw new Error(`publish answered ${published.status}: ${JSON.stringify(published.body)}`);
      }
      return id;
    },

    /** Holder balances from GET /api/v2/tokens/{token}/holders (raw units), keyed by lowercase address. */
    async balances(token: string): Promise<Record<string, string>> {
      const holders = await get(`/api/v2/tokens/${token}/holders?page[limit]=200`);
      return Object.fromEntries(
        holders.data.map((h: { account: { id: string }; value: string }) => [h.account.id.toLowerCase(), h.value]),
      );
    },

    /** The token's events of one name from GET /api/v2/tokens/{token}/events, oldest first, values by name. */
    async events(token: string, eventName: string): Promise<TokenEventView[]> {
      const page = await get(
        `/api/v2/tokens/${token}/events?filter[eventName]=${eventName}&sort=blockNumber&page[limit]=200`,
      );
      return page.data.map(
        (e: { eventName: string; emitter: { id: string }; values: { name: string; value: string }[] }) => ({
          eventName: e.eventName,
          emitter: e.emitter.id,
          values: Object.fromEntries(e.values.map((v) => [v.name, v.value])),
        }),
      );
    },

    /** GET /api/v2/tokens/{token}/pre-check: the verdict (`allowed`, `refusal`). */
    async precheck(token: string, query: Record<string, string | number | bigint>): Promise<Json> {
      const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
      return (await get(`/api/v2/tokens/${token}/pre-check?${search}`)).data;
    },

    /** The chain's latest block time (seconds). */
    async chainNow(): Promise<number> {
      const block = (await stack.rpc("eth_getBlockByNumber", ["latest", false])) as { timestamp: string };
      return Number(BigInt(block.timestamp));
    },

    /** Moves the chain clock forward and mines a block at the new time. */
    async advanceTime(seconds: number): Promise<void> {
      await stack.rpc("evm_increaseTime", [seconds]);
      await stack.rpc("evm_mine");
    },

    /**
     * A contract call sent by an unlocked anvil account (index 1..5) straight to the chain, for the few actions
     * the API has no route for (a collateral oracle's attestation, a transfer approver's approval). Waits for the
     * receipt and fails on a revert.
     */
    async sendAsAnvilAccount(from: Address, to: Address, abi: Abi, functionName: string, args: readonly unknown[]) {
      const data = encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]);
      const hash = (await stack.rpc("eth_sendTransaction", [{ from, to, data }])) as Hex | undefined;
      if (!hash) throw new Error(`${functionName} from ${from} was not accepted by the chain`);
      for (let i = 0; i < 100; i++) {
        const receipt = (await stack.rpc("eth_getTransactionReceipt", [hash])) as { status: string } | null;
        if (receipt) {
          if (receipt.status !== "0x1") throw new Error(`${functionName} from ${from} reverted (${hash})`);
          return hash;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`${functionName} from ${from}: no receipt for ${hash}`);
    },

    /** Signs EIP-712 typed data with an anvil account's key (a holder's signature the API relays). */
    async signTypedData(
      index: number,
      domain: TypedDataDomain,
      types: Record<string, readonly TypedDataParameter[]>,
      primaryType: string,
      message: Record<string, unknown>,
    ): Promise<Hex> {
      return anvilAccount(index).signTypedData({ domain, types, primaryType, message } as Parameters<
        ReturnType<typeof anvilAccount>["signTypedData"]
      >[0]);
    },
  };
  return flows;
}

export type ApiFlows = ReturnType<typeof apiFlows>;

/** The refusal of a write by a compliance module: 422 in the spec's envelope, naming the module's typeId and reason. */
export function expectComplianceRefusal(answer: Answer, typeId: string, reason: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(422);
  expect(answer.body).toMatchObject({
    code: "COMPLIANCE_CHECK_FAILED",
    status: 422,
    data: { typeId, reason, contractError: { id: "ComplianceCheckFailed", args: { typeId, reason } } },
  });
  expect(answer.body.message).toContain(typeId);
  expect(answer.body.message).toContain(reason);
}

/** A write refused by a contract's own revert (no rule of its own): 422 CONTRACT_ERROR with the decoded error. */
export function expectContractRefusal(answer: Answer, errorName: string, args: Record<string, string> = {}) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(422);
  expect(answer.body).toMatchObject({ code: "CONTRACT_ERROR", data: { contractError: { id: errorName, args } } });
}

/** Addresses compared as the API may write them (checksummed or lowercase). */
export const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** An ISO date-time as the API normalises a date parameter: whole seconds, UTC, milliseconds shown. */
export const isoSeconds = (seconds: number) => new Date(seconds * 1000).toISOString();

export { json };

/**
 * Requests as a chosen API key (default `defaultKey()`): mutations wait for their outcome (Prefer: wait=60).
 * `stackOf` is read per request, so a describe block can declare these before its beforeAll boots the stack.
 */
export function keyedApi(stackOf: () => TestStack, defaultKey: () => string) {
  async function call(method: string, path: string, body?: unknown, key = defaultKey()): Promise<Answer> {
    const res = await stackOf().api(path, {
      method,
      key,
      headers: { prefer: "wait=60" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await json(res) };
  }
  /** A mutation that must complete; its completed envelope's `data`. */
  async function write(method: string, path: string, body?: unknown, key = defaultKey()): Promise<Json> {
    const { status, body: answer } = await call(method, path, body, key);
    if (status !== 200 || answer.data?.status !== "COMPLETED") {
      throw new Error(`${method} ${path} answered ${status}: ${JSON.stringify(answer)}`);
    }
    return answer.data;
  }
  return { call, write };
}
