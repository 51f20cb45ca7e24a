// The webhooks' settings (docs/configuration.md): which special-purpose addresses endpoints may target, and the
// retries' pace. WEBHOOK_REORG_DEPTH stays the host core's: it is every served chain's finality depth.
import { z } from "zod";
import { type Config, runsEmbedded } from "../../host/config.ts";
import { parseCidr } from "../../host/net/cidr.ts";

/** A WEBHOOKS_PRIVATE_TARGET_RANGES value's ranges (`none` and blanks dropped). */
const rangeEntries = (setting: string) =>
  setting
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "" && entry !== "none");

export const WebhookSettings = z.object({
  WEBHOOKS_PRIVATE_TARGET_RANGES: z
    .string()
    .superRefine((setting, check) => {
      for (const entry of rangeEntries(setting))
        if (!parseCidr(entry)) check.addIssue({ code: "custom", message: `${entry} is not a CIDR range (10.0.0.0/8)` });
    })
    .optional()
    .meta({
      description:
        "Comma-separated CIDR ranges (`10.20.0.0/16,fd12::/64`) of loopback, private, link-local or other " +
        "special-purpose addresses that webhook endpoints may target, over http or https; a public address needs " +
        "https and no listing. Everything special-purpose not listed is refused, on save and again at each delivery " +
        "after the name is resolved. The cloud metadata addresses (169.254.169.254, fd00:ec2::254) are allowed only " +
        "when listed exactly (`169.254.169.254/32`), whatever wider range is listed. `none`: no range.",
      defaultText: "`127.0.0.0/8,::1/128` (loopback) when both the database and the chain are embedded, else none",
    }),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce
    .number()
    .positive()
    .default(60)
    .describe(
      "The wait before a failed webhook delivery's first retry; each of the 12 retries doubles it (±20 % jitter), " +
        "about three days in all.",
    ),
  // A removed setting fails the start instead of being ignored: its meaning (every private range) is not kept.
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: z
    .undefined({
      error:
        "was replaced by WEBHOOKS_PRIVATE_TARGET_RANGES (the CIDR ranges webhooks may target, e.g. 127.0.0.0/8,::1/128)",
    })
    .optional()
    .meta({ description: "Removed: replaced by `WEBHOOKS_PRIVATE_TARGET_RANGES`; refused at start when set." }),
});
export type WebhookSettings = z.output<typeof WebhookSettings>;

/**
 * The special-purpose ranges webhook targets may be in, as CIDRs. Unset: loopback when the database and the chain
 * are embedded (a developer's machine); link-local, the metadata address and the private networks only ever listed.
 */
export function privateTargetRanges(
  settings: Pick<WebhookSettings, "WEBHOOKS_PRIVATE_TARGET_RANGES">,
  config: Pick<Config, "DATABASE_URL" | "RPC_URL" | "CHAINS">,
): string[] {
  const setting = settings.WEBHOOKS_PRIVATE_TARGET_RANGES;
  if (setting === undefined) return runsEmbedded(config) ? ["127.0.0.0/8", "::1/128"] : [];
  return rangeEntries(setting);
}
