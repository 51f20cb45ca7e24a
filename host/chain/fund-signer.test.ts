import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_FUNDER_KEY, type Chain, startChain } from "../../scripts/infra/anvil.ts";
import { removeDataDir } from "../../scripts/infra/data-dir.ts";
import { freePort } from "../../test/support/free-port.ts";
import { fundSigner } from "./fund-signer.ts";
import { createServedChains, type ServedChain } from "./served-chains.ts";

const WANTED = 10n ** 17n;
let dataDir: string;
let node: Chain;
let on: ServedChain;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "fund-signer-"));
  node = await startChain({ dataDir, port: await freePort(), ephemeral: true });
  on = createServedChains([{ chainId: node.chainId, rpcUrl: node.rpcUrl, systemFactory: zeroAddress }]).primary;
});

afterAll(async () => {
  await node?.stop();
  if (dataDir) removeDataDir(dataDir);
});

describe("fundSigner", () => {
  const ctx = {
    deployment: { funderKey: ANVIL_FUNDER_KEY },
    config: { ORG_FUNDING_WEI: WANTED },
  } as unknown as Parameters<typeof fundSigner>[0];

  it("tops up signers funded at once from one funder, each once (its nonce taken in turn)", async () => {
    const signers = Array.from({ length: 6 }, () => privateKeyToAddress(generatePrivateKey()));
    // Each signer twice at once: the second finds it funded in its turn.
    await Promise.all([...signers, ...signers].map((signer) => fundSigner(ctx, on, signer)));
    const balances = await Promise.all(signers.map((address) => on.client.getBalance({ address })));
    expect(balances).toEqual(signers.map(() => WANTED));
  });
});
