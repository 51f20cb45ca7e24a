// A filter on a text[] column (e.g. the accounts an event involves) by membership: declare the field as text with
// ARRAY_MEMBERSHIP_OPERATORS and `condition: arrayMembership(column)`.
import { type Expression, type SqlBool, sql } from "kysely";
import type { FieldCondition } from "./spec.ts";

/** eq: holds the value; ne: does not; inArray: holds any of them; notInArray: none of them; isEmpty: holds nothing. */
export const ARRAY_MEMBERSHIP_OPERATORS = ["eq", "ne", "inArray", "notInArray", "isEmpty", "isNotEmpty"] as const;

export function arrayMembership(column: string): FieldCondition {
  const array = sql`cast(${sql.ref(column)} as text[])`;
  return (filter): Expression<SqlBool> => {
    switch (filter.operator) {
      case "eq":
        return sql<SqlBool>`${String(filter.value)} = any(${array})`;
      case "ne":
        return sql<SqlBool>`not coalesce(${String(filter.value)} = any(${array}), false)`;
      case "inArray":
        return sql<SqlBool>`${array} && cast(${filter.values.map(String)} as text[])`;
      case "notInArray":
        return sql<SqlBool>`not coalesce(${array} && cast(${filter.values.map(String)} as text[]), false)`;
      case "isEmpty":
        return sql<SqlBool>`coalesce(cardinality(${array}), 0) = 0`;
      case "isNotEmpty":
        return sql<SqlBool>`cardinality(${array}) > 0`;
      default:
        throw new Error(`Operator ${filter.operator} does not apply to an array membership filter`);
    }
  };
}
