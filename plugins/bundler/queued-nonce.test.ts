import { describe, expect, it } from "vitest";
import type { ApiError } from "../../host/errors/api-error.ts";
import { isNonceRefusal, validateBehindQueue } from "./queued-nonce.ts";
import { rpcError } from "./rpc-error.ts";

const nonceRefusal = () =>
  rpcError("BUNDLER_USER_OPERATION_REJECTED", "AA25 invalid account nonce", { reason: "AA25 invalid account nonce" });
const signatureRefusal = () =>
  rpcError("BUNDLER_SIGNATURE_INVALID", "AA24 signature error", { reason: "AA24 signature error" });

/** A validation that refuses as the chain stands with `refusal` and accepts once queued; records how it ran. */
function validation(refusal?: () => ApiError) {
  const runs: boolean[] = [];
  return {
    runs,
    validate: async (queued: boolean) => {
      runs.push(queued);
      if (!queued && refusal) throw refusal();
      return "valid";
    },
  };
}

describe("validateBehindQueue", () => {
  const key = 5n << 64n;

  it("validates as the chain stands without reading the mempool when that passes", async () => {
    const v = validation();
    let reads = 0;
    const predecessorWaits = async () => {
      reads += 1;
      return true;
    };
    expect(await validateBehindQueue(key + 3n, v.validate, predecessorWaits)).toBe("valid");
    expect(v.runs).toEqual([false]);
    expect(reads).toBe(0);
  });

  it("validates again behind a waiting predecessor when the chain refuses the nonce", async () => {
    const v = validation(nonceRefusal);
    expect(await validateBehindQueue(key + 3n, v.validate, async () => true)).toBe("valid");
    expect(v.runs).toEqual([false, true]);
  });

  it("keeps the nonce refusal when no predecessor waits, or for a key's first operation", async () => {
    const v = validation(nonceRefusal);
    await expect(validateBehindQueue(key + 3n, v.validate, async () => false)).rejects.toThrow("AA25");
    await expect(validateBehindQueue(key, v.validate, async () => true)).rejects.toThrow("AA25");
    expect(v.runs).toEqual([false, false]);
  });

  it("keeps any other refusal without reading the mempool", async () => {
    const v = validation(signatureRefusal);
    let reads = 0;
    const predecessorWaits = async () => {
      reads += 1;
      return true;
    };
    await expect(validateBehindQueue(key + 3n, v.validate, predecessorWaits)).rejects.toThrow("AA24");
    expect(reads).toBe(0);
  });

  it("recognises the EntryPoint's nonce refusal by its reason", () => {
    expect(isNonceRefusal(nonceRefusal())).toBe(true);
    expect(isNonceRefusal(signatureRefusal())).toBe(false);
    expect(isNonceRefusal(new Error("AA25"))).toBe(false);
  });
});
