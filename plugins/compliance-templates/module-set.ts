// A template's controls against its module set (fixed at creation), checked on update and on publish.
import { incompatibleTypeIds } from "../../domain/compliance/control-types.ts";
import { ApiError } from "../../host/errors/api-error.ts";

export function assertModuleSet(
  moduleSetVersion: number,
  content: { modules: { typeId: string }[]; requiredControls: string[] },
): void {
  const ids = incompatibleTypeIds(
    [...content.modules.map((m) => m.typeId), ...content.requiredControls],
    moduleSetVersion,
  );
  if (ids.length === 0) return;
  throw new ApiError("COMPLIANCE_MODULE_SET_INCOMPATIBLE", {
    message: `Not controls of moduleSetVersion ${moduleSetVersion}: ${ids.join(", ")}`,
    details: { moduleSetVersion, incompatibleTypeIds: ids },
  });
}
