// A stored template as the API shows it, and the errors of module-set checks.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../host/errors/api-error.ts";
import { assertModuleSet } from "./module-set.ts";
import { templateEnvelope } from "./serialize.ts";
import type { ComplianceTemplateRow } from "./tables.ts";

const row: ComplianceTemplateRow = {
  id: "kyc-verified-investors",
  organizationId: null,
  name: "KYC verified investors",
  description: "",
  jurisdictions: [],
  isSystem: true,
  isDraft: false,
  moduleSetVersion: 2,
  version: 1,
  modules: [{ typeId: "identity-verification-v2" }],
  requiredControls: ["identity-verification-v2"],
  createdBy: "system",
  createdAt: new Date("2025-01-02T03:04:05Z"),
  updatedAt: new Date("2025-01-02T03:04:05Z"),
};

describe("compliance template resource", () => {
  it("shows library templates as owned by system, with ISO timestamps and the template's own link", () => {
    expect(templateEnvelope(row)).toEqual({
      data: {
        ...row,
        organizationId: "system",
        createdAt: "2025-01-02T03:04:05.000Z",
        updatedAt: "2025-01-02T03:04:05.000Z",
      },
      links: { self: "/v2/settings/compliance-templates/kyc-verified-investors" },
    });
    expect(templateEnvelope({ ...row, organizationId: "org-1" }).data.organizationId).toBe("org-1");
  });

  it("refuses controls outside the module set, listing them", () => {
    expect(() => assertModuleSet(2, row)).not.toThrow();
    try {
      assertModuleSet(1, {
        modules: [{ typeId: "capped-v2" }, { typeId: "transfer-approval" }],
        requiredControls: ["capped-v2"],
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        code: "COMPLIANCE_MODULE_SET_INCOMPATIBLE",
        status: 422,
        details: { moduleSetVersion: 1, incompatibleTypeIds: ["capped-v2"] },
      });
    }
  });
});
