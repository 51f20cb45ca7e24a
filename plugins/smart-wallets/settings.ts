// The smart wallets' settings (docs/configuration.md): the paymaster deposit each organisation keeps.
import { z } from "zod";

export const SmartWalletSettings = z.object({
  PAYMASTER_DEPOSIT_WEI: z.coerce
    .bigint()
    .default(10n ** 18n)
    .describe("An organisation's paymaster deposit at the EntryPoint (wei), topped up to this when below half of it."),
});
export type SmartWalletSettings = z.output<typeof SmartWalletSettings>;
