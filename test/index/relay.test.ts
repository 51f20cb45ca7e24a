// Pure parts of the indexer (src/ holds only indexing files: Ponder executes every file there).
import { encodeAbiParameters, encodeEventTopics, type Hex, pad, parseAbi, toFunctionSelector } from "viem";
import { describe, expect, it } from "vitest";
import { logIndexInTransaction } from "../../src/receipts.ts";
import { relayFromLogs, relayKindOf } from "../../src/relay.ts";

const EVENTS = parseAbi([
  "event ExecutedForwardRequest(address indexed signer, uint256 nonce, bool success)",
  "event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)",
  "event BeforeExecution()",
]);
const FORWARDER = "0x00000000000000000000000000000000000000f0";
const ENTRY_POINT = "0x0000000071727De22E5E9d8BAf0edAc6f37da032";
const RELAYER = "0x00000000000000000000000000000000000000aa";
const SIGNER = "0x00000000000000000000000000000000000000b1";
const OTHER = "0x00000000000000000000000000000000000000b2";
const ACCOUNT = "0x00000000000000000000000000000000000000c1";
const PAYMASTER = "0x00000000000000000000000000000000000000d1";
const HASH = pad("0x1234", { size: 32 });

const forwarded = (logIndex: number, signer: Hex) => ({
  address: FORWARDER as Hex,
  logIndex,
  topics: encodeEventTopics({ abi: EVENTS, eventName: "ExecutedForwardRequest", args: { signer } }) as Hex[],
  data: encodeAbiParameters([{ type: "uint256" }, { type: "bool" }], [1n, true]),
});
const userOp = (logIndex: number, paymaster: Hex) => ({
  address: ENTRY_POINT as Hex,
  logIndex,
  topics: encodeEventTopics({
    abi: EVENTS,
    eventName: "UserOperationEvent",
    args: { userOpHash: HASH, sender: ACCOUNT, paymaster },
  }) as Hex[],
  data: encodeAbiParameters(
    [{ type: "uint256" }, { type: "bool" }, { type: "uint256" }, { type: "uint256" }],
    [0n, true, 12345n, 100n],
  ),
});

const beforeExecution = (logIndex: number) => ({
  address: ENTRY_POINT as Hex,
  logIndex,
  topics: encodeEventTopics({ abi: EVENTS, eventName: "BeforeExecution" }) as Hex[],
  data: "0x" as Hex,
});

describe("relayKindOf", () => {
  it("recognises forwarder and EntryPoint calls by selector, and nothing else", () => {
    const execute = toFunctionSelector("execute((address,address,uint256,uint256,uint48,bytes,bytes))");
    const handleOps = toFunctionSelector(
      "handleOps((address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes)[],address)",
    );
    expect(relayKindOf(`${execute}00`)).toBe("forwarder");
    expect(relayKindOf(`${handleOps}00`)).toBe("user-operation");
    expect(relayKindOf(toFunctionSelector("mint(address,uint256)"))).toBeNull();
    expect(relayKindOf("0x")).toBeNull();
    expect(relayKindOf(undefined)).toBeNull();
  });
});

describe("relayFromLogs", () => {
  it("takes the signer of the first forward request completed after the log (batches hold several)", () => {
    const logs = [forwarded(1, SIGNER), forwarded(3, OTHER)];
    expect(relayFromLogs("forwarder", FORWARDER, RELAYER, 0, logs)).toMatchObject({
      relayerKind: "forwarder",
      relayer: RELAYER,
      metaTxSigner: expect.stringMatching(/b1$/i),
      userOpHash: null,
      paymaster: null,
      actualGasCost: null,
    });
    expect(relayFromLogs("forwarder", FORWARDER, RELAYER, 2, logs)?.metaTxSigner).toMatch(/b2$/i);
    expect(relayFromLogs("forwarder", FORWARDER, RELAYER, 4, logs)).toBeNull();
  });

  it("reads a user operation's hash, account, paymaster and gas cost; no paymaster is null", () => {
    const sponsored = relayFromLogs("user-operation", ENTRY_POINT, RELAYER, 0, [userOp(2, PAYMASTER)]);
    expect(sponsored).toMatchObject({
      relayerKind: "user-operation",
      userOpHash: HASH,
      metaTxSigner: expect.stringMatching(/c1$/i),
      paymaster: expect.stringMatching(/d1$/i),
      actualGasCost: 12345n,
    });
    const unsponsored = relayFromLogs("user-operation", ENTRY_POINT, RELAYER, 0, [
      userOp(2, "0x0000000000000000000000000000000000000000"),
    ]);
    expect(unsponsored?.paymaster).toBeNull();
  });

  it("gives an operation's logs after BeforeExecution, and its UserOperationEvent itself, that operation", () => {
    // Validation (0: an account deployed by initCode), BeforeExecution (1), op A's log (2) and event (3), op B's (4, 5).
    const logs = [beforeExecution(1), userOp(3, PAYMASTER), userOp(5, "0x0000000000000000000000000000000000000000")];
    expect(relayFromLogs("user-operation", ENTRY_POINT, RELAYER, 0, logs)).toBeNull();
    expect(relayFromLogs("user-operation", ENTRY_POINT, RELAYER, 2, logs)?.paymaster).toMatch(/d1$/i);
    expect(relayFromLogs("user-operation", ENTRY_POINT, RELAYER, 3, logs)?.paymaster).toMatch(/d1$/i);
    expect(relayFromLogs("user-operation", ENTRY_POINT, RELAYER, 4, logs)?.paymaster).toBeNull();
    expect(relayFromLogs("user-operation", ENTRY_POINT, RELAYER, 5, logs)).toMatchObject({ relayer: RELAYER });
    expect(relayFromLogs("user-operation", ENTRY_POINT, RELAYER, 6, logs)).toBeNull();
  });

  it("ignores completion events of other contracts and of the other relay kind", () => {
    expect(relayFromLogs("forwarder", OTHER, RELAYER, 0, [forwarded(1, SIGNER)])).toBeNull();
    expect(relayFromLogs("user-operation", FORWARDER, RELAYER, 0, [forwarded(1, SIGNER)])).toBeNull();
  });
});

describe("logIndexInTransaction", () => {
  it("is the log's position among its transaction's logs, whatever came before it in the block", () => {
    const logs = [{ logIndex: 7 }, { logIndex: 8 }, { logIndex: 9 }];
    expect(logIndexInTransaction(7, logs)).toBe(0);
    expect(logIndexInTransaction(9, logs)).toBe(2);
  });
});
