// The fixed yield schedule resources as the routes take and give them: the creation, top-up, withdrawal and claim
// bodies, and the schedule with its periods (and one holder's position).
import { z } from "@hono/zod-openapi";
import { FIXED_YIELD_INTERVALS, MAX_PERIODS } from "../../domain/fixed-yield/periods.ts";
import { AddressSchema, IsoTimestampSchema, SignerFields, UintStringSchema } from "../../host/http/schemas.ts";

/** A raw amount above 0 (the contract refuses 0). */
const PositiveAmountSchema = UintStringSchema.refine((v) => !/^\d+$/.test(v) || BigInt(v) > 0n, "must be above 0");

const INTERVALS = Object.keys(FIXED_YIELD_INTERVALS) as [keyof typeof FIXED_YIELD_INTERVALS, ...string[]];

export const CreateFixedYieldScheduleBodySchema = z
  .object({
    tokenAddress: AddressSchema.openapi({
      description: "A token of the organisation's system with the historical-balances feature",
    }),
    rateBps: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .openapi({ description: "Yearly yield in basis points (500 = 5 %)", example: 500 }),
    interval: z
      .enum(INTERVALS)
      .openapi({ description: "Period length: DAILY 1 d, WEEKLY 7 d, MONTHLY 30 d, QUARTERLY 91 d, ANNUALLY 365 d" }),
    startDate: IsoTimestampSchema.openapi({ description: "ISO 8601; after the chain's current time" }),
    endDate: IsoTimestampSchema.openapi({
      description: `ISO 8601; after startDate (the last period may be shorter), at most ${MAX_PERIODS} periods`,
    }),
    denominationAsset: AddressSchema.openapi({
      description: "What the yield is paid in: a platform token of the system or a registered external token",
    }),
    ...SignerFields,
  })
  .openapi("CreateFixedYieldSchedule");

export const TopUpBodySchema = z
  .object({
    amount: PositiveAmountSchema.openapi({
      description:
        "Raw units of the denomination asset, pulled from the signing wallet (grant the schedule an allowance first)",
    }),
    ...SignerFields,
  })
  .openapi("FixedYieldTopUp");

export const WithdrawalBodySchema = z
  .object({
    to: AddressSchema.optional().openapi({ description: "Recipient; default the signing wallet (the owner)" }),
    amount: PositiveAmountSchema.openapi({ description: "Raw units of the denomination asset" }),
    ...SignerFields,
  })
  .openapi("FixedYieldWithdrawal");

export const ClaimBodySchema = z.object(SignerFields).openapi("FixedYieldClaim");

export const ScheduleParamsSchema = z.object({ scheduleAddress: AddressSchema });

export const ScheduleQuerySchema = z.object({
  holder: AddressSchema.optional().openapi({
    param: { name: "holder", in: "query" },
    description: "Adds that holder's position (due, claimed, claimable)",
  }),
});

const PeriodSchema = z.object({
  index: z.number().int(),
  start: z.string().openapi({ description: "ISO 8601" }),
  end: z.string().openapi({ description: "ISO 8601" }),
  completed: z.boolean().openapi({ description: "Its end has passed: balances are final and the yield claimable" }),
  totalYield: z
    .string()
    .nullable()
    .openapi({ description: "Raw units due to every holder together (total supply at the end); null until completed" }),
});

const HolderPositionSchema = z.object({
  address: z.string(),
  due: z.string().openapi({ description: "Earned over the completed periods (claimed + claimable)" }),
  claimed: z.string(),
  claimable: z.string().openapi({ description: "What a claim would pay now (live read)" }),
  nextPeriod: z.number().int().openapi({ description: "The first period not yet claimed" }),
});

export const FixedYieldScheduleSchema = z
  .object({
    address: z.string(),
    owner: z.string(),
    token: z.object({ address: z.string(), symbol: z.string(), decimals: z.number().int() }),
    denominationAsset: z.object({ address: z.string(), symbol: z.string(), decimals: z.number().int() }),
    rateBps: z.number().int(),
    interval: z.string(),
    intervalSeconds: z.number().int(),
    startDate: z.string().openapi({ description: "ISO 8601" }),
    endDate: z.string().openapi({ description: "ISO 8601" }),
    funded: z.string().openapi({ description: "What the schedule holds now: topped up - withdrawn - claimed (raw)" }),
    totalClaimed: z.string(),
    periods: z.array(PeriodSchema),
    holder: HolderPositionSchema.optional().openapi({ description: "With ?holder= only" }),
  })
  .openapi("FixedYieldSchedule");

export type FixedYieldScheduleView = z.infer<typeof FixedYieldScheduleSchema>;
