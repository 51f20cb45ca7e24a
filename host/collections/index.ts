// The collection-query engine every list route uses: declare, parse, run, document.

export { type CollectionResult, type FacetBucket, likePattern, runCollection } from "./apply.ts";
export { ARRAY_MEMBERSHIP_OPERATORS, arrayMembership } from "./array-membership.ts";
export { collectionQueryParameters, collectionResponseSchema } from "./openapi.ts";
export { collectionPage } from "./page.ts";
export {
  type CollectionQuery,
  type FilterCondition,
  MAX_LIST_MEMBERS,
  PAGE_LIMIT,
  PAGE_OFFSET,
  parseCollectionQuery,
} from "./parse.ts";
export { collectionRoute } from "./route.ts";
export {
  type CollectionDefinition,
  type CollectionField,
  type CollectionSpec,
  defineCollection,
  type FieldCondition,
  type FieldDefinition,
  type FieldType,
  FLAT_KEYS,
  type FlatKey,
  OPERATORS,
  type Operator,
  type SortDirection,
} from "./spec.ts";
export { systemCollection } from "./system-collection.ts";
export type { FilterValue } from "./values.ts";
