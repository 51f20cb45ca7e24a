import { describe, expect, it } from "vitest";
import { LOCAL_RPC_LANES, ponderRpc } from "../../src/index-chains.ts";
import { indexSource } from "./served-chain.ts";

const deployment = { chainId: 1, systemFactory: "0x0000000000000000000000000000000000000001", startBlock: 0 } as const;

describe("indexSource", () => {
  it("gives a local development chain's URL to Ponder once per lane, uncached", () => {
    const embedded = { rpcUrl: "http://127.0.0.1:8545", chainId: 31338, embedded: true };
    const source = indexSource(embedded, {}, { ...deployment, chainId: 31338 });
    expect(source).toMatchObject({ disableCache: true, rpcLanes: LOCAL_RPC_LANES });
    expect(ponderRpc(source)).toEqual(Array.from({ length: LOCAL_RPC_LANES }, () => embedded.rpcUrl));
    const anvilElsewhere = { rpcUrl: "http://10.0.0.2:8545", chainId: 31337, embedded: false };
    expect(indexSource(anvilElsewhere, {}, deployment).rpcLanes).toBe(LOCAL_RPC_LANES);
  });

  it("gives an external chain's URL once, cached, unless its CHAINS entry asks for lanes", () => {
    const external = { rpcUrl: "https://rpc.example.com", wsUrl: "wss://rpc.example.com", chainId: 1, embedded: false };
    const source = indexSource(external, {}, deployment);
    const { rpcUrl, wsUrl } = external;
    expect(source).toEqual({ deployment, rpcUrl, wsUrl, disableCache: false, rpcLanes: 1 });
    expect(ponderRpc(source)).toBe("https://rpc.example.com");
    const ownNode = indexSource(external, { indexRpcLanes: 4 }, deployment);
    expect(ponderRpc(ownNode)).toEqual(Array.from({ length: 4 }, () => "https://rpc.example.com"));
  });
});
