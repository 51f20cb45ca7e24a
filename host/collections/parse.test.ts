// The query-string parser: defaults, every operator, every COLLECTION_* code and BAD_REQUEST from the input causing it.
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors/api-error.ts";
import { parseCollectionQuery } from "./parse.ts";
import { defineCollection } from "./spec.ts";

const STATUSES = ["OPEN", "CLOSED"] as const;
const spec = defineCollection({
  fields: {
    name: { column: "name", type: "text", sortable: true, facet: true },
    address: { column: "address", type: "text", normalize: (v) => v.toLowerCase() },
    quantity: { column: "quantity", type: "number", sortable: true },
    amount: { column: "amount", type: "bigint" },
    active: { column: "active", type: "boolean" },
    createdAt: { column: "created_at", type: "timestamp", sortable: true },
    status: { column: "status", type: "enum", values: STATUSES, facet: true },
    note: { column: "note", type: "text", filter: { operators: ["iLike", "eq"], defaultOperator: "iLike" } },
    secret: { column: "secret", type: "text", filter: false, sortable: true },
  },
  search: ["name", "status"],
  defaultSort: "-createdAt",
  tiebreaker: "id",
});

const parse = (query: string, using = spec) => parseCollectionQuery(new URLSearchParams(query), using);

function failure(query: string, using = spec): ApiError {
  try {
    parse(query, using);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`parsed without an error: ${query}`);
}

describe("parseCollectionQuery", () => {
  it("defaults: the route's sort, offset 0, limit 50, no filters, no search", () => {
    expect(parse("")).toEqual({
      filters: [],
      search: null,
      sort: { field: "createdAt", direction: "desc" },
      page: { offset: 0, limit: 50 },
    });
    expect(parse("sort=").sort).toEqual({ field: "createdAt", direction: "desc" });
  });

  it("ignores keys that are not collection parameters", () => {
    expect(parse("include=x&foo=bar").filters).toEqual([]);
  });

  it("reads sort ascending and descending", () => {
    expect(parse("sort=name").sort).toEqual({ field: "name", direction: "asc" });
    expect(parse("sort=-quantity").sort).toEqual({ field: "quantity", direction: "desc" });
    expect(parse("sort=secret").sort).toEqual({ field: "secret", direction: "asc" });
  });

  it("refuses more than one sort field", () => {
    for (const query of ["sort=name,-createdAt", "sort=name&sort=quantity", "sort=name,"]) {
      const error = failure(query);
      expect(error.code).toBe("COLLECTION_SORT_MULTI_FIELD_UNSUPPORTED");
      expect(error.definition).toMatchObject({ id: "SVC-9276", status: 400 });
    }
  });

  it("refuses a field that is not sortable, naming the sortable fields", () => {
    for (const query of ["sort=amount", "sort=-nope", "sort=-", "sort=constructor"]) {
      const error = failure(query);
      expect(error.code).toBe("COLLECTION_SORT_FIELD_UNKNOWN");
      expect(error.definition.id).toBe("SVC-9277");
      expect(error.details.sortableFields).toEqual(["name", "quantity", "createdAt", "secret"]);
    }
    expect(failure("sort=amount").details.field).toBe("amount");
  });

  it("reads page[offset] and page[limit] at their bounds", () => {
    expect(parse("page[offset]=0&page[limit]=1").page).toEqual({ offset: 0, limit: 1 });
    expect(parse("page[offset]=10000&page[limit]=200").page).toEqual({ offset: 10_000, limit: 200 });
  });

  it("refuses page[offset] outside 0..10000, non-integers included", () => {
    for (const value of ["-1", "10001", "1.5", "abc", "", "1e3", " 1", "99999999999999999999"]) {
      const error = failure(`page[offset]=${encodeURIComponent(value)}`);
      expect(error.code).toBe("COLLECTION_PAGE_OFFSET_OUT_OF_RANGE");
      expect(error.definition).toMatchObject({ id: "SVC-9275", status: 400 });
    }
  });

  it("refuses page[limit] outside 1..200, non-integers included", () => {
    for (const value of ["0", "201", "-5", "2.0", "ten", ""]) {
      const error = failure(`page[limit]=${encodeURIComponent(value)}`);
      expect(error.code).toBe("COLLECTION_PAGE_LIMIT_OUT_OF_RANGE");
      expect(error.definition).toMatchObject({ id: "SVC-9274", status: 400 });
    }
  });

  it("refuses unknown page keys and repeated page keys", () => {
    expect(failure("page[size]=10")).toMatchObject({ code: "BAD_REQUEST" });
    expect(failure("page[limit]=10&page[limit]=20")).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("reads the shorthand with the field's default operator", () => {
    expect(parse("filter[name]=Alice").filters).toEqual([{ field: "name", operator: "eq", value: "Alice" }]);
    expect(parse("filter[note]=abc").filters).toEqual([{ field: "note", operator: "iLike", value: "abc" }]);
    expect(parse("filter[status]=OPEN").filters).toEqual([{ field: "status", operator: "eq", value: "OPEN" }]);
  });

  it("reads each operator with values typed for the field", () => {
    const at = new Date("2024-05-01T10:00:00.000Z");
    const cases: [string, unknown][] = [
      ["filter[name][eq]=A", { field: "name", operator: "eq", value: "A" }],
      ["filter[name][ne]=A", { field: "name", operator: "ne", value: "A" }],
      ["filter[quantity][gt]=5", { field: "quantity", operator: "gt", value: 5 }],
      ["filter[quantity][gte]=-5", { field: "quantity", operator: "gte", value: -5 }],
      [
        "filter[amount][lt]=123456789012345678901234567890",
        { field: "amount", operator: "lt", value: "123456789012345678901234567890" },
      ],
      ["filter[createdAt][lte]=2024-05-01T10:00:00Z", { field: "createdAt", operator: "lte", value: at }],
      ["filter[name][iLike]=li", { field: "name", operator: "iLike", value: "li" }],
      ["filter[name][notILike]=A%25", { field: "name", operator: "notILike", value: "A%" }],
      ["filter[status][inArray]=OPEN,CLOSED", { field: "status", operator: "inArray", values: ["OPEN", "CLOSED"] }],
      ["filter[quantity][notInArray]=1,2,3", { field: "quantity", operator: "notInArray", values: [1, 2, 3] }],
      ["filter[quantity][between]=1,9", { field: "quantity", operator: "between", values: [1, 9] }],
      [
        "filter[createdAt][between]=2024-05-01,2024-05-01T12:00:00%2B02:00",
        { field: "createdAt", operator: "between", values: [new Date("2024-05-01T00:00:00Z"), at] },
      ],
      ["filter[name][isEmpty]=", { field: "name", operator: "isEmpty" }],
      ["filter[amount][isNotEmpty]", { field: "amount", operator: "isNotEmpty" }],
      ["filter[active]=true", { field: "active", operator: "eq", value: true }],
      ["filter[active][ne]=false", { field: "active", operator: "ne", value: false }],
    ];
    for (const [query, condition] of cases) expect(parse(query).filters, query).toEqual([condition]);
  });

  it("combines several filters, normalizes values the field declares, keeps SQL text as data", () => {
    const { filters } = parse(
      `filter[address]=0xABCdef&filter[quantity][gte]=1&filter[quantity][lte]=9&filter[name]=${encodeURIComponent("'; drop table x; --")}`,
    );
    expect(filters).toEqual([
      { field: "address", operator: "eq", value: "0xabcdef" },
      { field: "quantity", operator: "gte", value: 1 },
      { field: "quantity", operator: "lte", value: 9 },
      { field: "name", operator: "eq", value: "'; drop table x; --" },
    ]);
  });

  it("reads a timestamp whose unencoded + arrived as a space", () => {
    expect(parse("filter[createdAt][gt]=2024-05-01T12:00:00+02:00").filters).toEqual([
      { field: "createdAt", operator: "gt", value: new Date("2024-05-01T10:00:00Z") },
    ]);
  });

  it("reads filter[q] as the search, raw, when the route enables it", () => {
    expect(parse("filter[q]=abc").search).toBe("abc");
    expect(parse("filter[q][iLike]=a%25c").search).toBe("a%c");
    expect(parse("filter[q]=").search).toBeNull();
    expect(failure("filter[q][eq]=abc")).toMatchObject({
      code: "COLLECTION_FILTER_OPERATOR_UNKNOWN",
      details: { field: "q", operator: "eq", supportedOperators: ["iLike"] },
    });
    const noSearch = defineCollection({
      fields: { name: { column: "name", type: "text", sortable: true } },
      defaultSort: "name",
      tiebreaker: "id",
    });
    expect(failure("filter[q]=abc", noSearch)).toMatchObject({ code: "COLLECTION_FILTER_FIELD_UNKNOWN" });
  });

  it("refuses an unknown or unfilterable field, naming the filterable fields", () => {
    for (const query of ["filter[nope]=1", "filter[secret]=x", "filter[constructor]=x", "filter[]=x"]) {
      const error = failure(query);
      expect(error.code).toBe("COLLECTION_FILTER_FIELD_UNKNOWN");
      expect(error.definition.id).toBe("SVC-9278");
      expect(error.details.filterableFields).toEqual([
        "name",
        "address",
        "quantity",
        "amount",
        "active",
        "createdAt",
        "status",
        "note",
      ]);
    }
    expect(failure("filter[nope][eq]=1").details.field).toBe("nope");
  });

  it("refuses an unknown operator, or one the field does not support, naming the supported ones", () => {
    const unknown = failure("filter[name][like]=x");
    expect(unknown.code).toBe("COLLECTION_FILTER_OPERATOR_UNKNOWN");
    expect(unknown.definition.id).toBe("SVC-9279");
    expect(unknown.details).toEqual({
      field: "name",
      operator: "like",
      supportedOperators: ["eq", "ne", "iLike", "notILike", "inArray", "notInArray", "isEmpty", "isNotEmpty"],
    });
    expect(failure("filter[active][gt]=true").details).toMatchObject({ field: "active", operator: "gt" });
    expect(failure("filter[status][between]=OPEN,CLOSED").details).toMatchObject({
      supportedOperators: ["eq", "ne", "inArray", "notInArray"],
    });
    expect(failure("filter[note][ne]=x").details).toMatchObject({ supportedOperators: ["iLike", "eq"] });
    expect(failure("filter[name][]=x").code).toBe("COLLECTION_FILTER_OPERATOR_UNKNOWN");
    expect(failure("filter[name][toString]=x").code).toBe("COLLECTION_FILTER_OPERATOR_UNKNOWN");
  });

  it("takes at most 100 members in inArray and notInArray", () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => i).join(",");
    expect(parse(`filter[quantity][inArray]=${members(100)}`).filters[0]).toMatchObject({ operator: "inArray" });
    for (const operator of ["inArray", "notInArray"]) {
      const error = failure(`filter[quantity][${operator}]=${members(101)}`);
      expect(error.code).toBe("COLLECTION_FILTER_IN_LIST_TOO_LARGE");
      expect(error.definition).toMatchObject({ id: "SVC-9273", status: 400 });
    }
  });

  it("refuses a value that does not parse for the field's type, naming filter.<field>", () => {
    const cases = [
      "filter[createdAt][gt]=yesterday",
      "filter[createdAt]=2024-02-30",
      "filter[createdAt]=2024-01-01T24:00:00Z",
      "filter[active]=yes",
      "filter[quantity]=1.5",
      "filter[quantity]=9007199254740993",
      "filter[quantity][inArray]=1,x",
      "filter[amount]=1e18",
      "filter[status]=open",
      "filter[quantity][between]=1",
      "filter[quantity][between]=1,2,3",
      "filter[name][isEmpty]=yes",
    ];
    for (const query of cases) {
      const error = failure(query);
      const field = /filter\[(\w+)\]/.exec(query)![1];
      expect(error.code, query).toBe("BAD_REQUEST");
      expect(error.message, query).toContain(`filter.${field}`);
      expect(error.details.issues, query).toEqual([{ path: `filter.${field}`, message: expect.any(String) }]);
    }
  });

  it("refuses a malformed filter key", () => {
    for (const query of ["filter=x", "filter[name=x", "filter[name][eq][x]=1", "filter[a]b=1"]) {
      expect(failure(query).code, query).toBe("BAD_REQUEST");
    }
  });

  it("refuses the flat keys with a message naming the parameter to send instead", () => {
    const expected: Record<string, string> = {
      sortBy: "sortBy is not supported; send sort=<field> (prefix - for descending)",
      sortDirection: "sortDirection is not supported; send sort=-<field> for descending, sort=<field> for ascending",
      limit: "limit is not supported; send page[limit]",
      offset: "offset is not supported; send page[offset]",
      filters: "filters is not supported; send filter[<field>] or filter[<field>][<operator>]",
    };
    for (const [key, message] of Object.entries(expected)) {
      const error = failure(`${key}=1`);
      expect(error.code).toBe("BAD_REQUEST");
      expect(error.message).toBe(message);
      expect(error.details.issues).toEqual([{ path: key, message }]);
    }
    expect(failure("filters[name]=x").message).toContain("filter[<field>]");
  });

  it("lets a route opt out of refusing specific flat keys", () => {
    const participants = defineCollection({
      fields: { name: { column: "name", type: "text", sortable: true } },
      defaultSort: "name",
      tiebreaker: "id",
      allowFlatKeys: ["sortBy", "sortDirection"],
    });
    expect(parse("sortBy=name&sortDirection=desc", participants).sort).toEqual({ field: "name", direction: "asc" });
    expect(failure("limit=5", participants).message).toBe("limit is not supported; send page[limit]");
  });
});

describe("defineCollection", () => {
  const field = { column: "c", type: "text", sortable: true } as const;

  it("refuses a route declaration that cannot work", () => {
    expect(() => defineCollection({ fields: { a: field }, defaultSort: "-b" as "a", tiebreaker: "id" })).toThrow(
      /Default sort/,
    );
    expect(() =>
      defineCollection({ fields: { a: { ...field, sortable: false } }, defaultSort: "a", tiebreaker: "id" }),
    ).toThrow(/Default sort/);
    expect(() =>
      defineCollection({
        fields: { a: { column: "c", type: "boolean", sortable: true, filter: { operators: ["gt"] } } },
        defaultSort: "a",
        tiebreaker: "id",
      }),
    ).toThrow(/does not apply/);
    expect(() =>
      defineCollection({
        fields: { a: { ...field, filter: { operators: ["eq"], defaultOperator: "ne" } } },
        defaultSort: "a",
        tiebreaker: "id",
      }),
    ).toThrow(/Default operator/);
    expect(() =>
      defineCollection({
        fields: { a: field, n: { column: "n", type: "number" } },
        search: ["n"],
        defaultSort: "a",
        tiebreaker: "id",
      }),
    ).toThrow(/Search field/);
    expect(() => defineCollection({ fields: { q: field }, search: ["q"], defaultSort: "q", tiebreaker: "id" })).toThrow(
      /search key/,
    );
  });
});
