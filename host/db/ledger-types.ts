// Row types of the Ledger Index views, derived from ponder.schema.ts (the one source of truth).
import type * as schema from "../../ponder.schema.ts";

export interface LedgerTables {
  system: typeof schema.system.$inferSelect;
  token: typeof schema.token.$inferSelect;
  tokenBalance: typeof schema.tokenBalance.$inferSelect;
  tokenEvent: typeof schema.tokenEvent.$inferSelect;
}
