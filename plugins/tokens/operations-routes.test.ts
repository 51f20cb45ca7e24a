// Each servicing write encodes the token call its route documents, and operationRoutes mounts them all in the
// document's order.
import { OpenAPIHono } from "@hono/zod-openapi";
import { decodeFunctionData, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { TokenAbi } from "../../abis/Token.ts";
import type { AppEnv } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { addressFreezeOperation, partialFreezeOperation, pauseOperation } from "./freeze-operations.ts";
import { operationRoutes } from "./operations-routes.ts";
import { burnOperation, mintOperation } from "./supply-operations.ts";
import { asOneCall, tokenCall } from "./token-calls.ts";
import { approvalOperation, forcedTransferOperation, transferOperation } from "./transfer-operations.ts";

const A = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const B = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const decoded = (data: Hex) => decodeFunctionData({ abi: TokenAbi, data });

describe("token servicing writes", () => {
  it("mint and burn are one batch call each", () => {
    expect(decoded(mintOperation.encode({ recipients: [A, B], amounts: ["1", "2"] }, {}))).toEqual({
      functionName: "batchMint",
      args: [
        [A, B],
        [1n, 2n],
      ],
    });
    expect(decoded(burnOperation.encode({ holders: [A], amounts: ["3"] }, {}))).toEqual({
      functionName: "batchBurn",
      args: [[A], [3n]],
    });
  });

  it("a transfer batch is one multicall, a single transfer a plain call", () => {
    const one = transferOperation.encode({ recipients: [A], amounts: ["5"] }, {});
    expect(decoded(one)).toEqual({ functionName: "transfer", args: [A, 5n] });
    const two = transferOperation.encode({ recipients: [A, B], amounts: ["5", "6"] }, {});
    expect(two).toBe(
      asOneCall([
        tokenCall({ functionName: "transfer", args: [A, 5n] }),
        tokenCall({ functionName: "transfer", args: [B, 6n] }),
      ]),
    );
    expect(decoded(two).functionName).toBe("multicall");
  });

  it("approvals and forced transfers", () => {
    expect(decoded(approvalOperation.encode({ spender: A, amount: "0" }, {}))).toEqual({
      functionName: "approve",
      args: [A, 0n],
    });
    expect(decoded(forcedTransferOperation.encode({ from: A, to: B, amount: "7" }, {}))).toEqual({
      functionName: "forcedTransfer",
      args: [A, B, 7n],
    });
  });

  it.each([true, false])("freezes and pauses, or undoes them (frozen %s)", (frozen) => {
    expect(decoded(addressFreezeOperation(frozen).encode({ account: A }, {}))).toEqual({
      functionName: "setAddressFrozen",
      args: [A, frozen],
    });
    expect(decoded(partialFreezeOperation(frozen).encode({ account: A, amount: "9" }, {}))).toEqual({
      functionName: frozen ? "freezePartialTokens" : "unfreezePartialTokens",
      args: [A, 9n],
    });
    expect(decoded(pauseOperation(frozen).encode({}, {})).functionName).toBe(frozen ? "pause" : "unpause");
  });

  it("mounts every write below /api/v2/tokens/{tokenAddress}, in the document's order", () => {
    const app = new OpenAPIHono<AppEnv>();
    // Registration reads nothing of the context; the handlers, run by the end-to-end token tests, do.
    operationRoutes(app, {} as PluginContext);
    const document = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "0" } });
    const paths = Object.keys(document.paths ?? {}).map((path) => path.replace("/api/v2/tokens/{tokenAddress}/", ""));
    expect(paths).toEqual([
      "mint",
      "burn",
      "transfer",
      "approvals",
      "forced-transfer",
      "freeze-address",
      "freeze-tokens",
      "pause",
      "unfreeze-address",
      "unfreeze-tokens",
      "unpause",
    ]);
  });
});
