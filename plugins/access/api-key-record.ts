// An API key as the API shows it: its record, never the secret or its digest.
import type { Selectable } from "kysely";
import type { ApiKeysTable } from "../../host/db/platform-types.ts";
import type { API_KEY_COLUMNS } from "./api-key-store.ts";

type KeyRow = Pick<Selectable<ApiKeysTable>, (typeof API_KEY_COLUMNS)[number]>;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function toApiKey(row: KeyRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.keyPrefix,
    scope: row.scope,
    organizationId: row.organizationId,
    userId: row.userId,
    createdAt: row.createdAt.toISOString(),
    expiresAt: iso(row.expiresAt),
    lastUsedAt: iso(row.lastUsedAt),
    revokedAt: iso(row.revokedAt),
  };
}
