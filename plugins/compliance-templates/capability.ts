// The complianceTemplates capability: the templates an organisation sees, as token creation reads them, so the
// tokens plugin never reads this plugin's table.
import type { ComplianceTemplates } from "../../host/capabilities.ts";
import type { PlatformDb } from "../../host/db/database.ts";
import { visibleTemplates } from "./store.ts";

export function complianceTemplates(db: PlatformDb): ComplianceTemplates {
  return {
    async visible(organizationId, id) {
      const row = await visibleTemplates(db, organizationId).where("id", "=", id).executeTakeFirst();
      if (!row) return undefined;
      const { isDraft, modules, requiredControls } = row;
      return {
        id: row.id,
        isDraft,
        modules: modules as { typeId: string; params?: Record<string, unknown> }[],
        requiredControls,
      };
    },
  };
}
