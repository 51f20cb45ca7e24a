// Who reads custody's audit log and who activates custody partitions (docs/custody.md).
import type { Role } from "../../host/auth/permissions.ts";

export const PERMISSIONS = {
  /** The signing audit log: every signature a custody key made (digests and labels, never a key). */
  "custody:signatures:read": ["owner", "admin", "auditor"],
  /** The custody partitions' state: activation approvals, quorum, expiry. */
  "custody:partitions:read": ["owner", "admin", "auditor", "custodian"],
  /** One custodian's approval of a partition's activation (M of N, with their own PIN code). */
  "custody:partitions:approve": ["custodian"],
  /** Ending a partition's activation at once. */
  "custody:partitions:deactivate": ["owner", "admin", "custodian"],
} as const satisfies Record<string, readonly Role[]>;
