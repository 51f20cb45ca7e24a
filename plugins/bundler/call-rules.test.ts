import { type Address, encodeFunctionData, parseAbi } from "viem";
import { describe, expect, it } from "vitest";
import { callBreach, type TracedCallFrame } from "./call-rules.ts";

const entryPoint: Address = "0x4337084d9e255ff0702461cf8895ce9e3b5ff108";
const senderCreator = "0x449ed7c3e6fee6a97311d4b55475df59c44add33";
const sender: Address = "0x00000000000000000000000000000000000a0001";
const factory = "0x00000000000000000000000000000000000f0001";
const paymaster = "0x00000000000000000000000000000000000b0001";
const other = "0x00000000000000000000000000000000000c0001";
const depositTo = (to: string) =>
  encodeFunctionData({ abi: parseAbi(["function depositTo(address)"]), args: [to as Address] });

/** The simulation's top frame (at the EntryPoint) calling `calls` as the given entities. */
const validation = (...calls: TracedCallFrame[]): TracedCallFrame => ({
  type: "CALL",
  to: entryPoint,
  input: "0x12345678",
  calls: [{ type: "CALL", from: entryPoint, to: sender, input: "0x19822f7c", calls }],
});
const call = (from: string, to: string, input = "0x", value?: string): TracedCallFrame => ({
  type: "CALL",
  from,
  to,
  input,
  value,
});
const entities = { entryPoint, senderCreator, sender, factory };

describe("ERC-7562's call rules on a traced validation", () => {
  it("allows the account's prefund (fallback with value) and depositTo from the account or its factory", () => {
    expect(callBreach(validation(call(sender, entryPoint, "0x", "0x10")), entities)).toBeUndefined(); // OP-053
    expect(callBreach(validation(call(sender, entryPoint, depositTo(sender), "0x1")), entities)).toBeUndefined();
    const deployment: TracedCallFrame = {
      type: "CALL",
      to: entryPoint,
      input: "0x",
      calls: [
        {
          type: "CALL",
          from: entryPoint,
          to: senderCreator,
          input: "0x570e1a36",
          calls: [
            { ...call(senderCreator, factory, "0x5fbfb9cf"), calls: [call(factory, entryPoint, depositTo(sender))] },
          ],
        },
      ],
    };
    expect(callBreach(deployment, entities)).toBeUndefined(); // OP-052 from the factory
    // The EntryPoint's own calls (to the entities) are trusted, with value or not.
    expect(callBreach(validation(), entities)).toBeUndefined();
    expect(callBreach(validation(call(sender, other, "0x70a08231")), entities)).toBeUndefined(); // no value
  });

  it("refuses any other access to the EntryPoint (OP-054)", () => {
    expect(callBreach(validation(call(sender, entryPoint, "0x35567e1a")), entities)).toMatchObject({
      rule: "OP-054",
      from: sender,
    }); // getNonce: not depositTo
    expect(callBreach(validation(call(paymaster, entryPoint, "0x", "0x1")), entities)).toMatchObject({
      rule: "OP-054",
      from: paymaster,
    }); // the fallback, but not from the account
    expect(callBreach(validation(call(paymaster, entryPoint, depositTo(paymaster))), entities)).toMatchObject({
      rule: "OP-054",
    }); // depositTo, but from the paymaster
    // Nested below an allowed call, found all the same.
    const nested = { ...call(sender, other), calls: [call(other, entryPoint, "0xb760faf9")] };
    expect(callBreach(validation(nested), entities)).toMatchObject({ rule: "OP-054", from: other });
  });

  it("allows one CREATE2 of the sender in its factory's deployment, refuses any other (OP-031)", () => {
    const create2 = (from: string, to: string): TracedCallFrame => ({ type: "CREATE2", from, to, input: "0x3d60" });
    const deploying = (...calls: TracedCallFrame[]): TracedCallFrame => ({
      type: "CALL",
      to: entryPoint,
      input: "0x",
      calls: [
        {
          ...call(entryPoint, senderCreator, "0x570e1a36"),
          calls: [{ ...call(senderCreator, factory, "0x5fbfb9cf"), calls }],
        },
      ],
    });
    expect(callBreach(deploying(create2(factory, sender)), entities)).toBeUndefined();
    expect(callBreach(deploying(create2(factory, other)), entities)).toMatchObject({ rule: "OP-031", to: other });
    expect(callBreach(deploying(create2(factory, sender), create2(factory, sender)), entities)).toMatchObject({
      rule: "OP-031",
    });
    expect(callBreach(validation(create2(sender, sender)), entities)).toMatchObject({ rule: "OP-031" }); // not deploying
  });

  it("allows the precompiles that read nothing of the chain, refuses other low addresses (OP-062)", () => {
    const precompile = (n: number) => call(sender, `0x${n.toString(16).padStart(40, "0")}`, "0x00");
    for (const n of [1, 2, 5, 8, 0x0a, 0x11, 0x100])
      expect(callBreach(validation(precompile(n)), entities)).toBeUndefined();
    for (const n of [0x12, 0xff, 0x101])
      expect(callBreach(validation(precompile(n)), entities)).toMatchObject({ rule: "OP-062" });
  });

  it("refuses a call that ran out of gas, even one the caller caught (OP-020)", () => {
    const exhausted = { ...call(sender, other, "0x"), error: "out of gas" };
    expect(callBreach(validation(exhausted), entities)).toMatchObject({ rule: "OP-020", from: sender, to: other });
    expect(
      callBreach(validation({ ...call(sender, other, "0x"), error: "execution reverted" }), entities),
    ).toBeUndefined();
  });

  it("refuses a call with value to anything but the EntryPoint (OP-061)", () => {
    expect(callBreach(validation(call(sender, other, "0x", "0x1")), entities)).toEqual({
      rule: "OP-061",
      from: sender,
      to: other,
      reason: "a call with value may only go to the EntryPoint",
    });
  });
});
