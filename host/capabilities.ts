// Capabilities: what a plugin receives beyond the host's shared context, by name. The host provides custody and the
// secrets; a plugin provides the others (`provides`) and a plugin that needs one declares it (`requires`): its
// context then carries it, typed, under the same name. Plugins never import each other, so the shapes live here.
import type { Hex } from "viem";
import type { UserOperationPool } from "./chain/user-operation-pool.ts";
import type { Custody } from "./custody/custody.ts";

/** A compliance template as token creation reads it (the compliance-templates plugin owns the table). */
export interface ComplianceTemplateView {
  id: string;
  isDraft: boolean;
  modules: { typeId: string; params?: Record<string, unknown> }[];
  requiredControls: string[];
}

export interface ComplianceTemplates {
  /** A template the organisation sees (its own or the library's), or undefined. */
  visible(organizationId: string, id: string): Promise<ComplianceTemplateView | undefined>;
}

export interface WebhookDeliveryStats {
  /** Every webhook delivery counted by its status. */
  byOutcome(): Promise<{ outcome: string; count: number }[]>;
}

/** What a claim may name as its evidence: the kyc-documents plugin's documents, by their SHA-256. */
export interface KycDocumentLookup {
  /** The organisation's participants (ids) holding a document with this SHA-256 (0x and 64 hex digits). */
  holders(organizationId: string, sha256: string): Promise<string[]>;
}

export interface Capabilities {
  /** The organisations' wallets and signers (host). */
  custody: Custody;
  /** The master key that seals secrets at rest: custody seeds, second-factor and webhook secrets (host). */
  secrets: { masterKey: Buffer };
  /** The key that funds signers on embedded and test chains (host; host/chain/fund-signer.ts uses it). */
  deployment: { funderKey?: Hex };
  /** Takes other plugins' user operations (the bundler's pool). */
  userOperationPool: UserOperationPool;
  /** Reads of the compliance-templates plugin's templates. */
  complianceTemplates: ComplianceTemplates;
  /** The webhooks plugin's delivery counts. */
  webhookDeliveryStats: WebhookDeliveryStats;
  /** The kyc-documents plugin's documents, by their SHA-256. */
  kycDocuments: KycDocumentLookup;
}

/** The capabilities the host itself puts on its context; every other one is a plugin's. */
export const HOST_CAPABILITIES = ["custody", "secrets", "deployment"] as const;

/** The settings that hold the host's keys: never on a plugin's config (the capabilities above stand for them). */
export const HOST_KEY_SETTINGS = ["CUSTODY_MASTER_KEY", "DEPLOYER_PRIVATE_KEY", "PKCS11_USER_PIN"] as const;

export type CapabilityName = keyof Capabilities;
export type HostKeySetting = (typeof HOST_KEY_SETTINGS)[number];
export type HostCapabilityName = (typeof HOST_CAPABILITIES)[number];
export type PluginCapabilityName = Exclude<CapabilityName, HostCapabilityName>;
