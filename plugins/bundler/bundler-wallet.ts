// The organisation's bundler executors: EOAs of its custody seed at paths of their own (account 1', apart from the
// members' m/44'/60'/0'/0/n), m/44'/60'/1'/0/i for i < BUNDLER_EXECUTORS, each recorded as a wallet of kind `bundler`.
// Each signs its own bundles (its own nonce stream in the pipeline) and is their beneficiary. i = 0 is the single
// bundler wallet of earlier versions, so its bundles and records carry on.
import type { PluginContext } from "../../host/plugin.ts";

export const executorPath = (index: number) => `m/44'/60'/1'/0/${index}`;

/** The organisation's executors in index order (lowercase), created on first use. */
export async function bundlerExecutors(
  ctx: PluginContext<"custody">,
  organizationId: string,
  count: number,
): Promise<string[]> {
  const executors: string[] = [];
  // One after the other: the first use of each takes the organisation's custody lock.
  for (let i = 0; i < count; i++)
    executors.push((await ctx.custody.serviceWallet(organizationId, executorPath(i), "bundler")).toLowerCase());
  return executors;
}
