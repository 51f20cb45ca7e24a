import { describe, expect, it } from "vitest";
import { storageTraceOf } from "./storage-trace.ts";
import { validationMode } from "./validation-mode.ts";

describe("the storage trace and the validation mode", () => {
  it("tags each access by the EntryPoint's callee it ran under, and drops the EntryPoint's own", () => {
    const callees = { senderCreator: "0x0c", sender: "0x0a", paymaster: "0x0b" };
    const trace = storageTraceOf(
      {
        accesses: [
          ["0x0C", "0x0F", "0x1", true],
          ["0x0a", "0x0A", "0x2", false],
          ["0x0b", "0x0d", "0x3", false],
          ["0x99", "0x0d", "0x4", true],
        ],
        keccak: ["0x00"],
        extcode: [["EXTCODESIZE", "0x0A", "0x0B"]],
      },
      callees,
    );
    expect(trace.accesses).toEqual([
      { role: "factory", address: "0x0f", slot: "0x1", write: true },
      { role: "account", address: "0x0a", slot: "0x2", write: false },
      { role: "paymaster", address: "0x0d", slot: "0x3", write: false },
    ]);
    expect(trace.keccakInputs).toEqual(["0x00"]);
    expect(trace.extcode).toEqual([{ opcode: "EXTCODESIZE", from: "0x0a", to: "0x0b" }]);
  });

  it("BUNDLER_VALIDATION: the setting wins; unset, unsafe on an embedded anvil, safe on another chain", () => {
    const chains = [
      { chainId: 31337, anvilPort: 8545, finalityDepth: 0 },
      { chainId: 1, rpcUrl: "https://node.example", finalityDepth: 12 },
    ];
    expect(validationMode(undefined, chains, 31337)).toBe("unsafe");
    expect(validationMode(undefined, chains, 1)).toBe("safe");
    expect(validationMode("safe", chains, 31337)).toBe("safe");
    expect(validationMode("unsafe", chains, 1)).toBe("unsafe");
  });
});
