import { TimeoutError } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { registerPermissions } from "../../host/auth/permissions.ts";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { registerErrors } from "../../host/errors/registry.ts";
import type { Principal } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { ERRORS } from "./errors.ts";
import { answerJsonRpc, type CallContext } from "./json-rpc.ts";
import { PERMISSIONS } from "./permissions.ts";
import type { BundlerSettings } from "./settings.ts";

// Only methods that read nothing but the chain's id and EntryPoint run here; the refusals come before any run.
const call = (roles: string[], maxBatchSize = 3): CallContext => ({
  ctx: {} as PluginContext<never, BundlerSettings>,
  principal: { kind: "api-key", organizationId: "org", userId: "u", roles, scope: "read-write" } as Principal,
  chain: { chainId: 31337, deployment: {} } as unknown as ServedChain,
  requestId: "req",
  debugMethods: true,
  maxBatchSize,
  onUnexpected: (error) => {
    throw error;
  },
  onUnavailable: (error) => {
    throw error;
  },
});
const request = (id: number, method: string, params: unknown[] = []) => ({ jsonrpc: "2.0", id, method, params });
const operation = {
  sender: "0x0000000000000000000000000000000000000001",
  nonce: "0x0",
  callData: "0x",
  callGasLimit: "0x1",
  verificationGasLimit: "0x1",
  preVerificationGas: "0x1",
  maxFeePerGas: "0x1",
  maxPriorityFeePerGas: "0x1",
  signature: "0x",
};

beforeAll(() => {
  registerErrors(Object.entries(ERRORS));
  registerPermissions(Object.entries(PERMISSIONS));
});

describe("bundler JSON-RPC permissions", () => {
  it("answers the read methods to an auditor", async () => {
    expect(await answerJsonRpc(JSON.stringify(request(1, "eth_chainId")), call(["auditor"]))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: "0x7a69",
    });
  });

  it("refuses eth_sendUserOperation to an auditor with JSON-RPC 4100 naming the permission, before its params", async () => {
    const answer = (await answerJsonRpc(
      JSON.stringify(request(2, "eth_sendUserOperation", [operation, "0x0000000000000000000000000000000000000002"])),
      call(["auditor"]),
    )) as { id: number; error: { code: number; data: Record<string, unknown> } };
    expect(answer.id).toBe(2);
    expect(answer.error.code).toBe(4100);
    expect(answer.error.data).toMatchObject({
      requiredPermission: "bundler:send",
      dapiError: { id: "SVC-16020", status: 403 },
    });
    expect(answer.error.data.requiredRoles).not.toContain("auditor");
    expect(answer.error.data.requiredRoles).toContain("member");
  });

  it("keeps the debug methods to owners and admins", async () => {
    const refused = (await answerJsonRpc(JSON.stringify(request(3, "debug_bundler_clearState")), call(["member"]))) as {
      error: { code: number };
    };
    expect(refused.error.code).toBe(4100);
  });
});

describe("bundler JSON-RPC batch cap", () => {
  it("runs a batch up to the cap", async () => {
    const batch = [1, 2, 3].map((id) => request(id, "eth_chainId"));
    expect(await answerJsonRpc(JSON.stringify(batch), call(["member"], 3))).toHaveLength(3);
  });

  it("refuses a larger batch whole with one -32005 error and runs none of it", async () => {
    const batch = [1, 2, 3, 4].map((id) => request(id, "eth_chainId"));
    const answer = (await answerJsonRpc(JSON.stringify(batch), call(["member"], 3))) as {
      id: null;
      error: { code: number; message: string; data: Record<string, unknown> };
    };
    expect(Array.isArray(answer)).toBe(false);
    expect(answer.id).toBeNull();
    expect(answer.error.code).toBe(-32005);
    expect(answer.error.message).toContain("at most 3");
    expect(answer.error.data).toMatchObject({ batchSize: 4, maxBatchSize: 3, dapiError: { id: "SVC-16022" } });
  });
});

describe("bundler JSON-RPC EntryPoints", () => {
  const V08 = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";
  const V07 = "0x0000000071727De22E5E9d8BAf0edAc6f37da032";
  const onBoth = (): CallContext => ({
    ...call(["member"]),
    chain: {
      chainId: 31337,
      deployment: { entryPoint: V08.toLowerCase(), entryPointV07: V07.toLowerCase() },
    } as unknown as ServedChain,
  });
  type Answer = { result?: unknown; error?: { code: number; message: string; data: Record<string, unknown> } };
  const answer = async (method: string, params: unknown[]) =>
    (await answerJsonRpc(JSON.stringify(request(1, method, params)), onBoth())) as Answer;

  it("lists both, v0.8 first, checksummed", async () => {
    expect((await answer("eth_supportedEntryPoints", [])).result).toEqual([V08, V07]);
  });

  it("refuses another EntryPoint with -32602 naming both", async () => {
    const { error } = await answer("eth_sendUserOperation", [operation, "0x0000000000000000000000000000000000000002"]);
    expect(error?.code).toBe(-32602);
    expect(error?.data).toMatchObject({ field: "entryPoint", supported: [V08, V07] });
  });

  it("refuses a malformed state override for eth_estimateUserOperationGas with -32602", async () => {
    const { error } = await answer("eth_estimateUserOperationGas", [
      operation,
      V07,
      { [operation.sender]: { state: { "0x1": "0x2" }, stateDiff: { "0x1": "0x3" } } },
    ]);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain("params.2");
  });
});

describe("bundler JSON-RPC when a part it needs does not answer", () => {
  const ENTRY_POINT = "0x0000000000000000000000000000000000000e07";
  /** A chain whose node reads fail with `failure` (what the request's deadline or a dropped connection throws). */
  const chainFailing = (failure: unknown) =>
    ({
      chainId: 31337,
      deployment: { entryPointV07: ENTRY_POINT },
      client: { readContract: () => Promise.reject(failure) },
    }) as unknown as ServedChain;
  const stakeStatus = (on: ServedChain, seen: { unavailable: unknown[]; unexpected: unknown[] }) =>
    answerJsonRpc(
      JSON.stringify(request(7, "debug_bundler_getStakeStatus", ["0x0000000000000000000000000000000000000001"])),
      {
        ...call(["owner"]),
        chain: on,
        onUnexpected: (error) => seen.unexpected.push(error),
        onUnavailable: (error, dependency) => seen.unavailable.push({ error, dependency }),
      },
    ) as Promise<{ id: number; error: { code: number; message: string; data: Record<string, unknown> } }>;

  it("answers a node past its deadline with -32603 and the retryable 503 dependency error, not an internal one", async () => {
    const seen = { unavailable: [] as unknown[], unexpected: [] as unknown[] };
    const timeout = new TimeoutError({ body: { deadlineMs: 5000 }, url: "http://127.0.0.1:8545" });
    const answer = await stakeStatus(chainFailing(timeout), seen);
    expect(answer.id).toBe(7);
    expect(answer.error.code).toBe(-32603); // what viem's transports retry by themselves
    expect(answer.error.message).toMatch(/chain's node did not answer in time/);
    expect(answer.error.data.dapiError).toMatchObject({
      details: { code: "BUNDLER_DEPENDENCY_UNAVAILABLE" },
      id: "SVC-16006",
      category: "dependency",
      status: 503,
      retryable: true,
    });
    expect(seen).toEqual({ unavailable: [{ error: timeout, dependency: "chain" }], unexpected: [] });
  });

  it("answers a database that cannot be reached the same way, and anything else as the bundler's own failure", async () => {
    const seen = { unavailable: [] as unknown[], unexpected: [] as unknown[] };
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const down = await stakeStatus(chainFailing(refused), seen);
    expect(down.error.message).toMatch(/database cannot be reached/);
    expect(down.error.data.dapiError).toMatchObject({ details: { code: "BUNDLER_DEPENDENCY_UNAVAILABLE" } });
    const bug = new TypeError("x is undefined");
    const failed = await stakeStatus(chainFailing(bug), seen);
    expect(failed.error.code).toBe(-32603);
    expect(failed.error.data.dapiError).toMatchObject({ id: "SVC-16005", status: 500 });
    expect(seen).toEqual({ unavailable: [{ error: refused, dependency: "database" }], unexpected: [bug] });
  });
});
