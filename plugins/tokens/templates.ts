// The library token templates: which features each requires and allows, and its defaults.
import { type FeatureId, TOKEN_FEATURES } from "../../domain/features/feature-params.ts";
export interface TokenTemplate {
  id: string;
  name: string;
  description: string;
  isSystem: boolean;
  requiredFeatures: FeatureId[];
  allowedFeatures: FeatureId[];
  defaults: { decimals: number; featureConfigs: Partial<Record<FeatureId, Record<string, unknown>>> };
  /** The compliance template applied at creation when the request names none. */
  complianceTemplateId?: string | null;
  organizationId?: string | null;
  createdAt?: string | null;
}

const ALL: FeatureId[] = [...TOKEN_FEATURES];

export const LIBRARY_TEMPLATES: readonly TokenTemplate[] = [
  {
    id: "bond",
    name: "Bond",
    description: "Fixed-income instrument redeemable at maturity for its face value.",
    isSystem: true,
    requiredFeatures: ["historical-balances", "maturity-redemption"],
    allowedFeatures: [
      "historical-balances",
      "maturity-redemption",
      "fixed-treasury-yield",
      "transaction-fee",
      "permit",
      "conversion",
    ],
    defaults: { decimals: 18, featureConfigs: { "maturity-redemption": { faceValue: "1000" } } },
  },
  {
    id: "deposit",
    name: "Deposit",
    description: "Tokenised bank deposit or cash equivalent.",
    isSystem: true,
    requiredFeatures: [],
    allowedFeatures: ["historical-balances", "transaction-fee", "transaction-fee-accounting", "permit"],
    defaults: { decimals: 2, featureConfigs: {} },
  },
  {
    id: "equity",
    name: "Equity",
    description: "Shares carrying voting rights.",
    isSystem: true,
    requiredFeatures: ["historical-balances", "voting-power"],
    allowedFeatures: ["historical-balances", "voting-power", "permit", "conversion-minter"],
    defaults: { decimals: 0, featureConfigs: {} },
  },
  {
    id: "fund",
    name: "Fund",
    description: "Units of a collective investment fund with a management fee.",
    isSystem: true,
    requiredFeatures: ["aum-fee"],
    allowedFeatures: ["aum-fee", "historical-balances", "voting-power", "permit"],
    defaults: { decimals: 18, featureConfigs: { "aum-fee": { feeBps: 200 } } },
  },
  {
    id: "stablecoin",
    name: "Stablecoin",
    description: "Fiat-referenced token with gasless approvals.",
    isSystem: true,
    requiredFeatures: ["permit"],
    allowedFeatures: ALL.filter((f) => f !== "maturity-redemption" && f !== "voting-power"),
    defaults: { decimals: 6, featureConfigs: {} },
  },
];

export function findTemplate(id: string): TokenTemplate | undefined {
  return LIBRARY_TEMPLATES.find((t) => t.id === id);
}
