// The organisation's bundler wallet: an EOA of its custody seed at a path of its own (account 1', apart from the
// members' m/44'/60'/0'/0/n), recorded as a wallet of kind `bundler`. It signs the bundles and is their beneficiary.
import type { Address } from "viem";
import type { PluginContext } from "../../host/plugin.ts";

export const BUNDLER_WALLET_PATH = "m/44'/60'/1'/0/0";

export const bundlerWallet = (ctx: PluginContext<"custody">, organizationId: string): Promise<Address> =>
  ctx.custody.serviceWallet(organizationId, BUNDLER_WALLET_PATH, "bundler");
