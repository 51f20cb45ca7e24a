// The clients a benchmark's setup sends with: a public client polling every 50 ms (anvil mines at once, so receipts
// are there quickly) and a wallet client of the sending account, over one transport.
import { type Chain, createPublicClient, createWalletClient, http, type LocalAccount, type Transport } from "viem";

export function chainClients(chain: Chain, account: LocalAccount, transport: Transport = http()) {
  return {
    client: createPublicClient({ chain, transport, pollingInterval: 50 }),
    wallet: createWalletClient({ account, chain, transport }),
  };
}
