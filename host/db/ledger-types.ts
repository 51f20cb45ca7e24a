// Row types of the Ledger Index views, derived from ponder.schema.ts (the one source of truth).
import type * as schema from "../../ponder.schema.ts";

export interface LedgerTables {
  system: typeof schema.system.$inferSelect;
  token: typeof schema.token.$inferSelect;
  tokenFeature: typeof schema.tokenFeature.$inferSelect;
  tokenBalance: typeof schema.tokenBalance.$inferSelect;
  tokenMetadata: typeof schema.tokenMetadata.$inferSelect;
  tokenDocument: typeof schema.tokenDocument.$inferSelect;
  complianceModule: typeof schema.complianceModule.$inferSelect;
  tokenComplianceModule: typeof schema.tokenComplianceModule.$inferSelect;
  systemContract: typeof schema.systemContract.$inferSelect;
  identity: typeof schema.identity.$inferSelect;
  identityRegistration: typeof schema.identityRegistration.$inferSelect;
  identityClaim: typeof schema.identityClaim.$inferSelect;
  claimSignature: typeof schema.claimSignature.$inferSelect;
  identityClaimEvent: typeof schema.identityClaimEvent.$inferSelect;
  trustedIssuer: typeof schema.trustedIssuer.$inferSelect;
  topicScheme: typeof schema.topicScheme.$inferSelect;
  systemStatHour: typeof schema.systemStatHour.$inferSelect;
  activityEvent: typeof schema.activityEvent.$inferSelect;
  accessControlRoleMember: typeof schema.accessControlRoleMember.$inferSelect;
  roleAssignment: typeof schema.roleAssignment.$inferSelect;
  activityLink: typeof schema.activityLink.$inferSelect;
  // account abstraction
  userOperation: typeof schema.userOperation.$inferSelect;
  userOperationRevertReason: typeof schema.userOperationRevertReason.$inferSelect;
  entryPointDeposit: typeof schema.entryPointDeposit.$inferSelect;
  smartWallet: typeof schema.smartWallet.$inferSelect;
  smartWalletSigner: typeof schema.smartWalletSigner.$inferSelect;
  // directory and addons
  directoryEntry: typeof schema.directoryEntry.$inferSelect;
  tokenType: typeof schema.tokenType.$inferSelect;
  complianceModuleType: typeof schema.complianceModuleType.$inferSelect;
  addonType: typeof schema.addonType.$inferSelect;
  addonFactory: typeof schema.addonFactory.$inferSelect;
  exchangeRateFeed: typeof schema.exchangeRateFeed.$inferSelect;
  exchangeRateRound: typeof schema.exchangeRateRound.$inferSelect;
  // external tokens
  externalToken: typeof schema.externalToken.$inferSelect;
  // token-sale add-on
  tokenSale: typeof schema.tokenSale.$inferSelect;
  tokenSalePurchase: typeof schema.tokenSalePurchase.$inferSelect;
  // xvp settlements
  xvpSettlement: typeof schema.xvpSettlement.$inferSelect;
  xvpSettlementFlow: typeof schema.xvpSettlementFlow.$inferSelect;
  xvpSettlementApproval: typeof schema.xvpSettlementApproval.$inferSelect;
  // fixed yield schedules (add-on)
  fixedYieldSchedule: typeof schema.fixedYieldSchedule.$inferSelect;
  fixedYieldHolder: typeof schema.fixedYieldHolder.$inferSelect;
}

/** A hex value (address, hash) as the index stores it: lowercase. */
export function indexedHex(value: string): `0x${string}` {
  return value.toLowerCase() as `0x${string}`;
}

/** A block timestamp (seconds, as the index stores it) as an ISO 8601 string. */
export function isoFromSeconds(seconds: bigint | number): string {
  return new Date(Number(seconds) * 1000).toISOString();
}
