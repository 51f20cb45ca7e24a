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
