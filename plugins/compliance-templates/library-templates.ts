// The library compliance templates (isSystem true): every organisation sees them, none can change them. Migration
// 0008 writes them to platform.compliance_templates; a later change here needs a migration that calls
// upsertLibraryTemplates again.
import { type Kysely, sql } from "kysely";
import type { ModuleSetVersion } from "../../domain/compliance/control-types.ts";

export interface LibraryTemplate {
  id: string;
  name: string;
  description: string;
  jurisdictions: string[];
  moduleSetVersion: ModuleSetVersion;
  modules: { typeId: string; params?: Record<string, unknown> }[];
  requiredControls: string[];
}

/** The 27 member states of the European Union, ISO 3166-1 numeric. */
const EU_MEMBER_STATES = [
  40, 56, 100, 191, 196, 203, 208, 233, 246, 250, 276, 300, 348, 372, 380, 428, 440, 442, 470, 528, 616, 620, 642, 703,
  705, 724, 752,
];
const KYC = { expression: [{ nodeType: "TOPIC", topic: "KYC" }] };

export const LIBRARY_TEMPLATES: readonly LibraryTemplate[] = [
  {
    id: "kyc-verified-investors",
    name: "KYC verified investors",
    description: "Any jurisdiction: every recipient must be a registered identity holding a valid KYC claim.",
    jurisdictions: [],
    moduleSetVersion: 2,
    modules: [{ typeId: "identity-verification-v2", params: KYC }],
    requiredControls: ["identity-verification-v2"],
  },
  {
    id: "sanctioned-countries-blocked",
    name: "Sanctioned countries blocked",
    description:
      "Any jurisdiction: wallets registered in Cuba, Iran, North Korea or Syria may neither send nor receive; " +
      "extend the list per token.",
    jurisdictions: [],
    moduleSetVersion: 2,
    modules: [{ typeId: "country-block-list-v2", params: { countries: [192, 364, 408, 760] } }],
    requiredControls: ["country-block-list-v2"],
  },
  {
    id: "eu-verified-investors",
    name: "EU verified investors",
    description: "Recipients must be KYC-verified identities registered in a member state of the European Union.",
    jurisdictions: ["EU"],
    moduleSetVersion: 2,
    modules: [
      { typeId: "identity-verification-v2", params: KYC },
      { typeId: "country-allow-list-v2", params: { countries: EU_MEMBER_STATES } },
    ],
    requiredControls: ["identity-verification-v2", "country-allow-list-v2"],
  },
  {
    id: "germany-private-placement",
    name: "Germany private placement",
    description:
      "German offering to fewer than 150 investors: KYC-verified recipients registered in Germany, at most 149 " +
      "holders; the maximum supply is set per token.",
    jurisdictions: ["DE"],
    moduleSetVersion: 2,
    modules: [
      { typeId: "identity-verification-v2", params: KYC },
      { typeId: "country-allow-list-v2", params: { countries: [276] } },
      { typeId: "investor-count-v2", params: { maxInvestors: 149, countries: [], countryLimits: [] } },
      { typeId: "capped-v2" },
    ],
    requiredControls: ["identity-verification-v2", "country-allow-list-v2", "investor-count-v2"],
  },
  {
    id: "eu-approved-transfers-legacy",
    name: "EU approved transfers (legacy module set)",
    description:
      "For tokens on the version 1 module set: recipients registered in an EU member state, every transfer " +
      "approved beforehand by an approver named per token.",
    jurisdictions: ["EU"],
    moduleSetVersion: 1,
    modules: [
      { typeId: "country-allow-list", params: { countries: EU_MEMBER_STATES } },
      { typeId: "transfer-approval" },
    ],
    requiredControls: ["country-allow-list", "transfer-approval"],
  },
];

/** Writes the library as it stands here (insert or replace; a changed template gets the next version). */
export async function upsertLibraryTemplates(db: Kysely<unknown>): Promise<void> {
  for (const t of LIBRARY_TEMPLATES) {
    await sql`insert into platform.compliance_templates
        (id, organization_id, name, description, jurisdictions, is_system, is_draft, module_set_version, version,
         modules, required_controls, created_by)
      values (${t.id}, null, ${t.name}, ${t.description}, ${t.jurisdictions}::text[], true, false,
        ${t.moduleSetVersion}, 1, ${JSON.stringify(t.modules)}::jsonb, ${t.requiredControls}::text[], 'system')
      on conflict (id) do update set name = excluded.name, description = excluded.description,
        jurisdictions = excluded.jurisdictions, module_set_version = excluded.module_set_version,
        modules = excluded.modules, required_controls = excluded.required_controls,
        version = compliance_templates.version + 1, updated_at = now()
      where (compliance_templates.name, compliance_templates.description, compliance_templates.jurisdictions,
          compliance_templates.module_set_version, compliance_templates.modules, compliance_templates.required_controls)
        is distinct from (excluded.name, excluded.description, excluded.jurisdictions, excluded.module_set_version,
          excluded.modules, excluded.required_controls)`.execute(db);
  }
}
