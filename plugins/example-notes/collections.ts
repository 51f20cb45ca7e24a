// How notes are listed (collection query: filters, sort, search, paging).
import { defineCollection } from "../../host/collections/index.ts";

export const NOTE_COLLECTION = defineCollection({
  fields: {
    text: { column: "text", type: "text", sortable: true },
    wordCount: { column: "wordCount", type: "number", sortable: true },
    createdAt: { column: "createdAt", type: "timestamp", sortable: true },
  },
  search: ["text"],
  defaultSort: "-createdAt",
  tiebreaker: "id",
});
