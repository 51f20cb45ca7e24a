// The token features, one entry each: the registration everything else about a feature is derived from. Its
// contract is compiled into abis/ and deployed with every platform root (scripts/contracts/), its ABI merged into the
// index's TokenFeature source (abis/catalogue.ts), its events logged against the token (src/TokenFeature.ts), its
// fields drive the API's validation, the on-chain encoding and the index's decoding (feature-params.ts), its rules
// the API's refusals (feature-rules.ts). The order is the catalogue's on chain and in the API.

/**
 * How one parameter is written in JSON and on chain. `amount` fields are decimal strings in the units of
 * the asset named by `asset` (another field holding its address, or "token" for the token itself).
 */
export type Field = { name: string; about: string } & (
  | { kind: "address" | "bps" | "date" | "interval" | "bool" | "integer" }
  | { kind: "amount"; asset: string }
);

/**
 * An event of the feature's own that the index logs against its token (the token's events, the activity feeds):
 * the arguments naming who sent it (`sender`, else the argument "sender") and the accounts it involves.
 */
export interface FeatureEvent {
  sender?: string;
  involved: readonly string[];
}

export interface FeatureEntry<Id extends string = string> {
  /** contracts/features/<contract>.sol, whose `featureId()` is the entry's id. */
  contract: string;
  /** The parameters, in the order of their `abi.encode`. */
  fields: readonly Field[];
  /** Mirrors the contract's `requiredFeatures()` / `incompatibleFeatures()`. */
  requires?: readonly Id[];
  excludes?: readonly Id[];
  /** By event name (each unique across the features). */
  events?: Readonly<Record<string, FeatureEvent>>;
}

const FEES = (what: string): Field[] => [
  { name: "mintFeeBps", kind: "bps", about: `${what} on each mint` },
  { name: "burnFeeBps", kind: "bps", about: `${what} on each burn` },
  { name: "transferFeeBps", kind: "bps", about: `${what} on each transfer` },
  { name: "recipient", kind: "address", about: "the wallet that receives the fees" },
];

/** Checks each entry's rules against the catalogue's own ids. */
const catalogue = <const C extends Record<string, FeatureEntry<Extract<keyof C, string>>>>(entries: C) => entries;

/** Units as docs/tokens-and-features.md states them; `about` says what the parameter is. */
export const FEATURE_CATALOGUE = catalogue({
  "historical-balances": { contract: "HistoricalBalancesFeature", fields: [] },
  "maturity-redemption": {
    contract: "MaturityRedemptionFeature",
    fields: [
      { name: "maturityDate", kind: "date", about: "when the token matures and holders may redeem" },
      { name: "denominationAsset", kind: "address", about: "the ERC-20 the face value is paid in" },
      { name: "treasury", kind: "address", about: "the wallet that pays the face value" },
      {
        name: "faceValue",
        kind: "amount",
        asset: "denominationAsset",
        about: "paid per whole token at maturity",
      },
    ],
    events: { Redeemed: { involved: ["sender", "treasury"] } },
  },
  "fixed-treasury-yield": {
    contract: "FixedTreasuryYieldFeature",
    fields: [
      { name: "rate", kind: "bps", about: "the yield per year of 365 days" },
      { name: "interval", kind: "interval", about: "how often yield falls due" },
      { name: "treasury", kind: "address", about: "the wallet that pays the yield" },
      { name: "denominationAsset", kind: "address", about: "the ERC-20 the yield is paid in" },
    ],
    requires: ["historical-balances"],
    events: { YieldClaimed: { involved: ["sender"] } },
  },
  "voting-power": {
    contract: "VotingPowerFeature",
    fields: [],
    events: { DelegateChanged: { sender: "delegator", involved: ["delegator", "fromDelegate", "toDelegate"] } },
  },
  "aum-fee": {
    contract: "AumFeeFeature",
    fields: [
      { name: "feeBps", kind: "bps", about: "the management fee per year of 365 days, on the supply" },
      { name: "recipient", kind: "address", about: "the wallet that receives the fee" },
    ],
    events: { AumFeeCollected: { involved: ["recipient"] } },
  },
  "transaction-fee": {
    contract: "TransactionFeeFeature",
    fields: FEES("the fee, taken in tokens,"),
    excludes: ["transaction-fee-accounting"],
    events: { TransactionFeeCollected: { involved: ["payer", "recipient"] } },
  },
  "transaction-fee-accounting": {
    contract: "TransactionFeeAccountingFeature",
    fields: FEES("the fee, recorded for later settlement,"),
    excludes: ["transaction-fee"],
    events: {
      TransactionFeeAccrued: { involved: ["payer", "recipient"] },
      TransactionFeeSettled: { involved: ["payer", "recipient"] },
    },
  },
  "external-transaction-fee": {
    contract: "ExternalTransactionFeeFeature",
    fields: [
      { name: "feeToken", kind: "address", about: "the ERC-20 the fees are paid in" },
      { name: "mintFeeAmount", kind: "amount", asset: "feeToken", about: "the flat fee on each mint" },
      { name: "burnFeeAmount", kind: "amount", asset: "feeToken", about: "the flat fee on each burn" },
      { name: "transferFeeAmount", kind: "amount", asset: "feeToken", about: "the flat fee on each transfer" },
      { name: "recipient", kind: "address", about: "the wallet that receives the fees" },
    ],
    events: { ExternalTransactionFeeCharged: { involved: ["recipient", "from", "to"] } },
  },
  conversion: {
    contract: "ConversionFeature",
    fields: [
      {
        name: "targetToken",
        kind: "address",
        about: "the token holders convert into (it carries conversion-minter)",
      },
      { name: "conversionMinter", kind: "address", about: "the target token's conversion-minter feature" },
      { name: "denominationAsset", kind: "address", about: "the ERC-20 prices are expressed in" },
      { name: "discountBps", kind: "bps", about: "the discount on the conversion price" },
      {
        name: "capPricePerShareWad",
        kind: "integer",
        about: "the price cap: whole denomination units per whole target share, scaled by 1e18",
      },
      { name: "conversionWindowStart", kind: "date", about: "when conversions open" },
      { name: "conversionWindowEnd", kind: "date", about: "when conversions close" },
      {
        name: "minConversionAmount",
        kind: "amount",
        asset: "token",
        about: "the smallest amount converted at once",
      },
      { name: "partialAllowed", kind: "bool", about: "whether a holder may convert part of a balance" },
    ],
    events: { Converted: { involved: ["sender"] } },
  },
  "conversion-minter": {
    contract: "ConversionMinterFeature",
    fields: [],
    events: {
      ConversionMinted: { involved: ["to"] },
      ConversionAuthorizationChanged: { involved: [] },
    },
  },
  permit: { contract: "PermitFeature", fields: [] },
});

export type FeatureId = keyof typeof FEATURE_CATALOGUE;

/** The feature ids in the catalogue's order (a tuple, as z.enum takes it). */
export const TOKEN_FEATURES = Object.keys(FEATURE_CATALOGUE) as [FeatureId, ...FeatureId[]];

/** The entry of one feature, typed as any entry (the catalogue's literal types aside). */
export const featureEntry = (id: FeatureId): FeatureEntry<FeatureId> => FEATURE_CATALOGUE[id];

/** Every feature's own events the index logs, by event name. */
export function featureEvents(): [eventName: string, event: FeatureEvent][] {
  return TOKEN_FEATURES.flatMap((id) => Object.entries(featureEntry(id).events ?? {}));
}
