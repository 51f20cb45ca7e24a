import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, type Hex, keccak256, zeroAddress, zeroHash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { createServedChains } from "../../host/chain/served-chains.ts";
import { type Chain, startChain } from "../../scripts/infra/anvil.ts";
import { removeDataDir } from "../../scripts/infra/data-dir.ts";
import { freePort } from "../../test/support/free-port.ts";
import { changedCode, currentCodeHashes } from "./code-hashes.ts";
import { extcodeTrace } from "./extcode-trace.ts";

let dataDir: string;
let node: Chain;
let on: ServedChain;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "code-hashes-"));
  node = await startChain({ dataDir, port: await freePort(), ephemeral: true });
  on = createServedChains([{ chainId: node.chainId, rpcUrl: node.rpcUrl, systemFactory: zeroAddress }]).primary;
});

afterAll(async () => {
  await node?.stop();
  if (dataDir) removeDataDir(dataDir);
});

const setCode = (address: Address, code: Hex) =>
  on.client.request({ method: "anvil_setCode" as never, params: [address, code] as never });

describe("COD-010's code hashes and OP-041's EXTCODE* trace", () => {
  it("reads the code hashes of many addresses in one eth_call, and tells the first that changed", async () => {
    const contract: Address = "0x00000000000000000000000000000000000c0d10";
    const code: Hex = "0x600060005260206000f3";
    await setCode(contract, code);
    const funded: Address = "0x00000000000000000000000000000000000c0d11";
    await on.client.request({ method: "anvil_setBalance" as never, params: [funded, "0x1"] as never });
    const nothing = "0x00000000000000000000000000000000000c0d12";
    const hashes = await currentCodeHashes(on, [contract, funded, nothing]);
    expect([...hashes.values()]).toEqual([keccak256(code), keccak256("0x"), zeroHash]);
    expect(changedCode({ [contract]: keccak256(code) }, hashes)).toBeUndefined();
    expect(changedCode(null, hashes)).toBeUndefined();
    await setCode(contract, "0x5b600060005260206000f3");
    const after = await currentCodeHashes(on, [contract]);
    expect(changedCode({ [contract]: keccak256(code) }, after)).toBe(contract);
    expect(await currentCodeHashes(on, [])).toEqual(new Map());
  });

  it("traces each EXTCODE* with its frame and the address it read", async () => {
    const reader: Address = "0x00000000000000000000000000000000000c0d20";
    // EXTCODESIZE(0x…9a7562) POP, EXTCODEHASH(ADDRESS) POP, STOP
    await setCode(reader, "0x7300000000000000000000000000000000009a75623b50303f5000");
    const accesses = await extcodeTrace(on, { to: reader, data: "0x", stateOverrides: {} });
    expect(accesses).toEqual([
      { opcode: "EXTCODESIZE", from: reader, to: "0x00000000000000000000000000000000009a7562" },
      { opcode: "EXTCODEHASH", from: reader, to: reader },
    ]);
  });
});
