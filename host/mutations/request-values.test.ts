import { describe, expect, it } from "vitest";
import { ApiError } from "../errors/api-error.ts";
import type { RequestExecutor } from "./executors.ts";
import { requestValues } from "./request-values.ts";
import { sendJobFor } from "./send-job.ts";
import type { SubmitInput } from "./service.ts";
import { sendJobSpec } from "./signer-jobs.ts";

const TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const input: SubmitInput = {
  organizationId: "org",
  chainId: 31337,
  kind: "token.mint",
  to: TO,
  data: "0x",
  createdBy: "u",
};
const sender = { id: "r1", from: "0xabc", executor: "eoa", walletSelection: {} };

describe("requestValues", () => {
  it("queues the call unsigned, with the defaults of what the caller left out", () => {
    expect(requestValues(input, sender)).toMatchObject({
      id: "r1",
      status: "QUEUED",
      subStatus: null,
      fromAddress: "0xabc",
      toAddress: TO.toLowerCase(),
      value: "0",
      idempotencyKey: null,
      executor: "eoa",
      walletSelection: "{}",
      gasLimit: null,
      wakeJob: null,
      resultContext: null,
    });
    expect(requestValues(input, sender)).not.toHaveProperty("speed");
  });

  it("keeps what the caller gave", () => {
    const values = requestValues(
      { ...input, value: 5n, gas: 21000n, speed: "fast", description: "Mint", resultContext: { topic: "kyc" } },
      sender,
    );
    expect(values).toMatchObject({ value: "5", gasLimit: "21000", speed: "fast", description: "Mint" });
    expect(values.resultContext).toBe('{"topic":"kyc"}');
  });
});

describe("sendJobFor", () => {
  const wallet = { sendJob: (chainId: number, s: string) => ({ ...sendJobSpec(chainId, s), task: "wallet" }) };
  const executors = new Map([["smart-wallet", wallet as unknown as RequestExecutor]]);

  it("is the signer's send run for an EOA, the executor mode's job otherwise", () => {
    expect(sendJobFor(executors, "eoa", 1, "0xAB")).toEqual(sendJobSpec(1, "0xab"));
    expect(sendJobFor(executors, "smart-wallet", 1, "0xab").task).toBe("wallet");
  });

  it("refuses an executor mode this host does not run", () => {
    expect(() => sendJobFor(new Map(), "smart-wallet", 1, "0xab")).toThrow(ApiError);
  });
});
