// How a participant's KYC documents are listed (collection query: filters, sort, facets, paging).
import { defineCollection } from "../../host/collections/index.ts";

export const KYC_DOCUMENT_COLLECTION = defineCollection({
  fields: {
    type: { column: "type", type: "text", sortable: true, facet: true },
    claimTopic: { column: "claimTopic", type: "text", sortable: true },
    sha256: { column: "sha256", type: "text", normalize: (value) => value.toLowerCase() },
    fileName: { column: "fileName", type: "text" },
    contentType: { column: "contentType", type: "text" },
    size: { column: "size", type: "number", sortable: true },
    uploadedBy: { column: "uploadedBy", type: "text" },
    uploadedAt: { column: "uploadedAt", type: "timestamp", sortable: true },
  },
  search: ["type", "fileName"],
  defaultSort: "-uploadedAt",
  tiebreaker: "id",
});
