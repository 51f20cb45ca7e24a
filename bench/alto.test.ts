import { describe, expect, it } from "vitest";
import { altoArguments } from "./alto.ts";

describe("altoArguments", () => {
  it("runs Alto unsafe on the given chain, port and keys, deploying its simulation contracts", () => {
    const args = altoArguments({
      rpcUrl: "http://127.0.0.1:8545",
      entryPoints: ["0x0000000071727De22E5E9d8BAf0edAc6f37da032"],
      executorKeys: ["0x01", "0x02"],
      utilityKey: "0x03",
      port: 4337,
    });
    const flag = (name: string) => args[args.indexOf(name) + 1];
    expect(flag("--entrypoints")).toBe("0x0000000071727De22E5E9d8BAf0edAc6f37da032");
    expect(flag("--executor-private-keys")).toBe("0x01,0x02");
    expect(flag("--utility-private-key")).toBe("0x03");
    expect(flag("--rpc-url")).toBe("http://127.0.0.1:8545");
    expect(flag("--port")).toBe("4337");
    expect(flag("--safe-mode")).toBe("false");
    expect(flag("--deploy-simulations-contract")).toBe("true");
  });
});
