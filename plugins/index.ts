// The plugins the host loads, in mount order.
import type { Plugin } from "../host/plugin.ts";
import access from "./access/index.ts";
import accountActivity from "./account-activity/index.ts";
import auth from "./auth/index.ts";
import bundler from "./bundler/index.ts";
import complianceTemplates from "./compliance-templates/index.ts";
import custody from "./custody/index.ts";
import directory from "./directory/index.ts";
import exchangeRates from "./exchange-rates/index.ts";
import externalTokens from "./external-tokens/index.ts";
import fixedYieldSchedules from "./fixed-yield-schedules/index.ts";
import identities from "./identities/index.ts";
import kycDocuments from "./kyc-documents/index.ts";
import monitoring from "./monitoring/index.ts";
import participants from "./participants/index.ts";
import smartWallets from "./smart-wallets/index.ts";
import systemStats from "./system-stats/index.ts";
import systems from "./systems/index.ts";
import tokenSales from "./token-sales/index.ts";
import tokens from "./tokens/index.ts";
import transactions from "./transactions/index.ts";
import webhooks from "./webhooks/index.ts";
import workflowEngine from "./workflow-engine/index.ts";
import xvpSettlements from "./xvp-settlements/index.ts";

export const plugins: Plugin[] = [
  auth,
  access,
  systems,
  transactions,
  tokens,
  complianceTemplates,
  identities,
  systemStats,
  participants,
  kycDocuments,
  accountActivity,
  directory,
  externalTokens,
  webhooks,
  bundler,
  smartWallets,
  exchangeRates,
  tokenSales,
  workflowEngine,
  xvpSettlements,
  fixedYieldSchedules,
  monitoring,
  custody,
];
