import { BaseError } from "viem";
import { describe, expect, it } from "vitest";
import { broadcastRefusal } from "./resend.ts";

/** A node's refusal as viem reports it (the node's words in `details`, as anvil's are). */
const refused = (details: string) => new BaseError("Transaction creation failed.", { details });

describe("broadcastRefusal", () => {
  it("signs anew with bumped fees when the old fees are under the base fee or too low to replace", () => {
    // anvil's answer to bytes whose maxFeePerGas is under the block's base fee (seen on anvil 1.x)
    expect(broadcastRefusal(refused("max fee per gas less than block base fee"))).toBe("underpriced");
    // geth's
    expect(
      broadcastRefusal(refused("max fee per gas less than block base fee: address 0xabc, maxFeePerGas: 1, baseFee: 7")),
    ).toBe("underpriced");
    expect(broadcastRefusal(refused("transaction underpriced"))).toBe("underpriced");
    expect(broadcastRefusal(refused("replacement transaction underpriced"))).toBe("underpriced");
    expect(broadcastRefusal(new Error("fee cap less than block base fee"))).toBe("underpriced");
  });

  it("takes a transaction the node has, or whose nonce is used, as sent: confirmation decides", () => {
    expect(broadcastRefusal(refused("nonce too low"))).toBe("known");
    expect(broadcastRefusal(refused("already known"))).toBe("known");
  });

  it("leaves any other refusal to confirmation's timeout and reconciliation", () => {
    expect(broadcastRefusal(refused("insufficient funds for gas * price + value"))).toBe("refused");
    expect(broadcastRefusal(new Error("HTTP request failed"))).toBe("refused");
  });
});
