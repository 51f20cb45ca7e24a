import { expect, it } from "vitest";
import { createChainService } from "../../host/chain/chain-service.ts";
import { decimalsKey } from "./asset-decimals.ts";

it("keeps an asset's decimals apart on two nodes of one chain id (two platforms in one process)", () => {
  const asset = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
  const one = createChainService("http://127.0.0.1:8545", 31337);
  const other = createChainService("http://127.0.0.1:9545", 31337);
  expect(decimalsKey(one, asset)).not.toBe(decimalsKey(other, asset));
  expect(decimalsKey(one, asset)).toBe(decimalsKey(createChainService("http://127.0.0.1:8545", 31337), asset));
  expect(decimalsKey(one, asset.toLowerCase() as typeof asset)).toBe(decimalsKey(one, asset));
});
