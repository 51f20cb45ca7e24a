// Token creation's compliance plan: the controls of a published (or library) compliance template, each
// with the template's params overlaid by the request's complianceConfigs, encoded for the system's modules.

import type { Address, Hex } from "viem";
import { controlType } from "../../domain/compliance/control-types.ts";
import type { RequestChain } from "../../host/chain/request-chain.ts";
import { ApiError, badRequest } from "../../host/errors/api-error.ts";
import { zodIssues } from "../../host/http/validation.ts";
import type { PluginContext } from "../../host/plugin.ts";

export interface PlannedModule {
  module: Address;
  params: Hex;
}

type Ctx = PluginContext<"complianceTemplates">;

async function findTemplate(ctx: Ctx, organizationId: string, id: string) {
  const row = await ctx.complianceTemplates.visible(organizationId, id);
  if (!row) throw new ApiError("COMPLIANCE_TEMPLATE_NOT_FOUND", { details: { complianceTemplateId: id } });
  if (row.isDraft) {
    throw new ApiError("COMPLIANCE_TEMPLATE_NOT_APPLICABLE", {
      message: `The compliance template ${id} is a draft; publish it before creating tokens with it`,
      details: { complianceTemplateId: id, isDraft: true },
    });
  }
  return row;
}

/** The (module, params) pairs for createTokenWithFeatures; empty without a compliance template. */
export async function planCompliance(
  ctx: Ctx,
  chain: RequestChain,
  input: {
    organizationId: string;
    complianceTemplateId?: string | null;
    complianceConfigs: Partial<Record<string, Record<string, unknown>>>;
  },
): Promise<PlannedModule[]> {
  const { complianceTemplateId, complianceConfigs } = input;
  if (!complianceTemplateId) {
    const stray = Object.keys(complianceConfigs);
    if (stray.length) {
      throw badRequest("complianceConfigs needs a complianceTemplateId (on the request or the token template)", [
        { path: `complianceConfigs.${stray[0]}`, message: "no compliance template applies" },
      ]);
    }
    return [];
  }
  const template = await findTemplate(ctx, input.organizationId, complianceTemplateId);
  const { modules } = template;
  const typeIds = [...new Set([...modules.map((m) => m.typeId), ...template.requiredControls])];
  const unknown = Object.keys(complianceConfigs).filter((id) => !typeIds.includes(id));
  if (unknown.length) {
    throw badRequest(
      `The compliance template ${complianceTemplateId} has no control ${unknown[0]}`,
      unknown.map((id) => ({ path: `complianceConfigs.${id}`, message: "not a control of the template" })),
    );
  }
  const installed = await chain.ledger
    .selectFrom("complianceModule")
    .select(["id", "typeId"])
    .where("compliance", "=", chain.contracts.compliance.toLowerCase() as Address)
    .where("registered", "=", true)
    .execute();
  const issues: { path: string; message: string }[] = [];
  const planned: PlannedModule[] = [];
  for (const typeId of typeIds) {
    const fromTemplate = modules.find((m) => m.typeId === typeId)?.params ?? {};
    const params = { ...fromTemplate, ...(complianceConfigs[typeId] ?? {}) };
    const control = controlType(typeId);
    const module = installed.find((m) => m.typeId === typeId)?.id;
    if (!control || !module) {
      issues.push({ path: `complianceConfigs.${typeId}`, message: "this system has no module for the control" });
      continue;
    }
    const parsed = control.params.safeParse(params);
    if (!parsed.success) {
      issues.push(...zodIssues(parsed.error, ["complianceConfigs", typeId]));
      continue;
    }
    planned.push({ module, params: control.encodeParams(parsed.data) });
  }
  if (issues.length) {
    throw new ApiError("COMPLIANCE_TEMPLATE_NOT_APPLICABLE", {
      message: `The compliance template ${complianceTemplateId} cannot be applied: ${issues[0].path}: ${issues[0].message}`,
      details: { complianceTemplateId, issues },
    });
  }
  return planned;
}
