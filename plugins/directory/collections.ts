// How the system's addon factories are listed: the spec's filters, sorts, facets and search.

import { ADDON_KINDS } from "../../domain/directory/addon-kinds.ts";
import { defineCollection } from "../../host/collections/index.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";

/** Columns of the addon_factory view (addon-factories-query.ts). */
export const ADDON_FACTORY_COLLECTION = defineCollection({
  fields: {
    id: { column: "id", type: "text", sortable: true, normalize: indexedHex },
    name: { column: "name", type: "text", sortable: true },
    typeId: { column: "typeName", type: "text", sortable: true, facet: true },
    account: { column: "id", type: "text", normalize: indexedHex },
    kind: { column: "kind", type: "enum", values: ADDON_KINDS, facet: true },
  },
  search: ["id", "name"],
  defaultSort: "name",
  tiebreaker: "id",
});
