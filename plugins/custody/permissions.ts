// Who reads custody's audit log and who activates custody partitions (docs/custody.md).
import type { Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  /** The signing audit log: every signature a custody key made (digests and labels, never a key). */
  "custody:signatures:read": ["owner", "admin", "auditor"],
} as const satisfies Record<string, readonly Role[]>;
