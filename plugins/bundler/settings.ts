// The bundler's settings (docs/configuration.md): its debug namespace, batch size, sponsorship limits, how far back
// lookups search the chain, how strictly validation is checked and how many executors send bundles.
import { z } from "zod";
import { booleanSetting } from "../../host/config.ts";

export const BundlerSettings = z.object({
  BUNDLER_DEBUG_METHODS: booleanSetting("false").describe(
    "`true`: the bundler also serves ERC-7769's `debug_bundler_*` methods (clear state, dump the mempool, bundle " +
      "now, bundling mode, dump/set/clear reputation, stake status). For tests; never in production.",
  ),
  BUNDLER_MAX_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(20)
    .describe(
      "The most requests one JSON-RPC batch to `POST /api/v2/bundler` may hold; a larger batch is refused as a whole " +
        "(JSON-RPC error -32005, `BUNDLER_BATCH_TOO_LARGE`).",
    ),
  BUNDLER_SPONSORED_OPERATIONS_PER_DAY: z.coerce
    .number()
    .int()
    .min(0)
    .default(100)
    .describe(
      "The most UserOperations of one sender (wallet) paid by a paymaster that the bundler accepts in any 24 hours " +
        "(then JSON-RPC error -32504, `BUNDLER_SPONSORSHIP_LIMIT_EXCEEDED`). 0: no sponsored operations.",
    ),
  BUNDLER_SPONSORED_WEI_PER_DAY: z.coerce
    .bigint()
    .min(0n)
    .default(10n ** 17n)
    .describe(
      "The most wei one sender's sponsored UserOperations may cost their paymaster in any 24 hours, each counted at " +
        "its maximum charge (all its gas limits at its `maxFeePerGas`), checked before it enters the mempool.",
    ),
  BUNDLER_RECEIPT_LOOKBACK_BLOCKS: z.coerce
    .number()
    .int()
    .min(1)
    .default(10_000)
    .describe(
      "How many of the latest blocks `eth_getUserOperationReceipt` and `eth_getUserOperationByHash` search (one " +
        "`eth_getLogs` of the EntryPoints) for an operation this bundler's mempool does not hold; an older one is " +
        "answered null.",
    ),
  BUNDLER_EXECUTORS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(2)
    .describe(
      "How many executor wallets send an organisation's bundles on each chain, in parallel (each its own nonce " +
        "stream). Derived from the organisation's custody at `m/44'/60'/1'/0/i` (i = 0 is the first), recorded as " +
        "wallets of kind `bundler` and funded like the first. A sender's operations all go out from one executor.",
    ),
  BUNDLER_BUNDLE_TARGET_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(64)
    .describe(
      "A bundling run (auto mode) sends as soon as this many of the organisation's accepted operations wait on the " +
        "chain, without waiting out `BUNDLER_BUNDLE_MAX_WAIT_MS` (default: a full bundle). Also how many an " +
        "executor's bundle takes before the next executor with no bundle on its way gets any.",
    ),
  BUNDLER_BUNDLE_MAX_WAIT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(250)
    .describe(
      "How long a bundling run (auto mode) lets the oldest waiting operation wait, since its acceptance, for others " +
        "to share its bundle, unless `BUNDLER_BUNDLE_TARGET_SIZE` of them wait already (each bundle costs its " +
        "transaction, block and confirmations whatever it carries), or they arrive fast enough to fill it by " +
        "`BUNDLER_BUNDLE_FILL_WAIT_MS`. 0: a run sends as soon as an acceptance wakes it.",
    ),
  BUNDLER_BUNDLE_FILL_WAIT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(1000)
    .describe(
      "How long a bundling run (auto mode) lets the oldest waiting operation wait when operations arrive fast enough " +
        "(as the waiting ones came) to fill a bundle of `BUNDLER_BUNDLE_TARGET_SIZE` by then: under load, full " +
        "bundles rather than many small ones (each costs the machine the same whatever it carries). Below " +
        "`BUNDLER_BUNDLE_MAX_WAIT_MS` it counts as that.",
    ),
  BUNDLER_VALIDATION: z
    .enum(["safe", "unsafe"])
    .optional()
    .meta({
      description:
        "How a UserOperation's validation is checked on acceptance. `safe`: traced under ERC-7562's rules (opcodes, " +
        "storage access with associated storage and the staked-entity exceptions, EREP-050); a breach is JSON-RPC " +
        "error -32502 naming the rule. `unsafe`: a plain `eth_call` of the EntryPoint's simulation, for a node you " +
        "trust. Unset: `unsafe` on the embedded anvils, `safe` on any other chain.",
      defaultText: "`unsafe` on embedded chains, else `safe`",
    }),
});
export type BundlerSettings = z.output<typeof BundlerSettings>;
