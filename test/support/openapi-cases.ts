// Turns an OpenAPI 3.1 document into HTTP request cases per operation: fast-check arbitraries and a one-input sweep.

import fc from "fast-check";
import { OPERATORS } from "../../host/collections/spec.ts";

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
}

interface OperationObject {
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } | { $ref: string };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
}

export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  /** The JSON request body's schema, when the operation declares one. */
  body?: { schema: JsonSchema; required: boolean };
}

/** Real values of the running stack (a token address, a transaction id, ...) that path and body values draw on. */
export type KnownValues = readonly string[];

export interface BodyCase {
  kind: string;
  contentType: string | null;
  text: string;
}

export type AuthCase =
  | { kind: "api-key" }
  | { kind: "none" }
  | { kind: "wrong-key"; value: string }
  | { kind: "cookie"; name: string; value: string };

export interface RequestCase {
  method: string;
  /** Path and query string as sent, e.g. `/api/v2/token/0x..?page[limit]=-1`. */
  target: string;
  headers: Record<string, string>;
  auth: AuthCase;
  body: BodyCase | null;
  /** In the sweep: the one input made hostile, e.g. `query filter[kind][iLike]` or `body set amounts.0`. */
  slot?: string;
}

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Follows a local `$ref` (`#/components/...`); other values come back as they are. */
export function deref<T>(doc: OpenApiDocument, value: T | { $ref: string }, seen = 0): T {
  if (!value || typeof value !== "object" || !("$ref" in value) || typeof value.$ref !== "string") return value as T;
  if (seen > 32) throw new Error(`$ref cycle at ${value.$ref}`);
  const target = value.$ref
    .replace(/^#\//, "")
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc);
  if (target === undefined) throw new Error(`Unresolvable $ref ${value.$ref}`);
  return deref(doc, target as T | { $ref: string }, seen + 1);
}

/** Every operation of the document: paths × methods, path-level parameters merged in, refs resolved. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = deref(doc, rawItem) as Record<string, unknown> & { parameters?: OperationObject["parameters"] };
    for (const method of HTTP_METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const byKey = new Map<string, Parameter>();
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const param = deref<Parameter>(doc, p);
        byKey.set(`${param.in}:${param.name}`, param);
      }
      const requestBody = op.requestBody ? deref(doc, op.requestBody) : undefined;
      const content = requestBody && "content" in requestBody ? requestBody.content : undefined;
      const media = content?.["application/json"] ?? Object.values(content ?? {})[0];
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: [...byKey.values()],
        body: media?.schema
          ? {
              schema: media.schema,
              required: Boolean(requestBody && "required" in requestBody && requestBody.required),
            }
          : undefined,
      });
    }
  }
  return operations;
}

/** Raw JSON text spliced into a body as is: number literals JSON.stringify cannot write, deep nesting, huge arrays. */
export class RawJson {
  constructor(readonly text: string) {}
  [fc.toStringMethod]() {
    return `RawJson(${excerpt(this.text, 80)})`;
  }
}

/** JSON.stringify, except that RawJson values are written verbatim. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : toJsonText(v))).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function excerpt(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

// ---- strings -------------------------------------------------------------------------------------------------------

/** Hand-picked hostile strings: traversal, encodings, NUL, SQL, JSON, LIKE wildcards, unicode, surrogates, long. */
export const HOSTILE_STRINGS: readonly string[] = [
  "",
  " ",
  "../",
  "../../../../etc/passwd",
  "..%2f..%2f",
  "%2e%2e%2f",
  "%00",
  "\u0000",
  "a\u0000b",
  "%",
  "%%",
  "%ZZ",
  "%E0%A4%A",
  "\\",
  "%\\",
  "_%",
  "' OR '1'='1",
  "'; DROP TABLE platform.users; --",
  '" OR 1=1 --',
  '{"$gt":""}',
  "{}",
  "[]",
  "null",
  "true",
  "-1",
  "0",
  "1e309",
  "NaN",
  "Infinity",
  "0x",
  `0x${"f".repeat(40)}`,
  `0X${"A".repeat(40)}`,
  `0x${"0".repeat(39)}g`,
  "\u202eevil",
  "\ud800",
  "\udfff",
  "💥",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "e\u0301",
  "\ufeff",
  "<script>alert(1)</script>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, meant literally
  "${jndi:ldap://x}",
  "{{7*7}}",
  "__proto__",
  "constructor",
  "\r\n",
  "\t",
  "A".repeat(3000),
  "é".repeat(400),
  "💥".repeat(200),
];

/** The few that most often break something (NUL, a trailing LIKE escape, traversal, ...): drawn more often. */
export const CORE_HOSTILE_STRINGS: readonly string[] = [
  "",
  "\u0000",
  "%00",
  "\\",
  "%\\",
  "../",
  "'",
  "x",
  "-1",
  "💥",
  "\ud800",
  "A".repeat(3000),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...CORE_HOSTILE_STRINGS), weight: 3 },
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 3 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 48 }), weight: 2 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 24 }), weight: 1 },
  { arbitrary: fc.string({ maxLength: 24 }), weight: 2 },
);

/** What fetch can put in a header: tab, printable ASCII and Latin-1 (no NUL, CR or LF). */
const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;
const headerChar = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09))
  .map((code) => String.fromCharCode(code));

export const hostileHeaderValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS.filter((s) => HEADER_SAFE.test(s))), weight: 3 },
  { arbitrary: fc.string({ unit: headerChar, maxLength: 64 }), weight: 2 },
);

/** encodeURIComponent, which throws on a lone surrogate: those become U+FFFD as a URL parser would write them. */
export function encodeComponent(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "\ufffd"));
  }
}

// ---- values from a schema ------------------------------------------------------------------------------------------

function merged(doc: OpenApiDocument, schemas: JsonSchema[]): JsonSchema {
  const result: JsonSchema = { properties: {}, required: [] };
  for (const s of schemas.map((one) => deref<JsonSchema>(doc, one))) {
    const { properties = {}, required = [] } = result;
    Object.assign(result, s, { properties: Object.assign(properties, s.properties), required });
    required.push(...(s.required ?? []));
  }
  return result;
}

function typesOf(s: JsonSchema): string[] {
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  if (s.properties) return ["object"];
  if (s.items) return ["array"];
  return [];
}

/** No `.filter` here: a filter that can never pass (say, a pattern longer than a default bound) spins forever. */
function stringValue(s: JsonSchema, known: KnownValues): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Number.POSITIVE_INFINITY;
  const pattern = s.pattern ? new RegExp(s.pattern) : undefined;
  const fits = (v: string) => v.length >= min && v.length <= max && (!pattern || pattern.test(v));
  let base: fc.Arbitrary<string>;
  if (pattern) base = fc.stringMatching(pattern);
  else if (s.format === "email") base = fc.emailAddress();
  else if (s.format === "date-time") base = fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  else if (s.format === "uuid") base = fc.uuid();
  else base = fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, 32)) });
  const fromKnown = known.filter(fits);
  return fromKnown.length > 0 ? fc.oneof(base, fc.constantFrom(...fromKnown)) : base;
}

/**
 * Values that satisfy the schema as far as JSON Schema says (types, required, enum, patterns, lengths, bounds); strings
 * also draw on the known values. Cross-field rules a schema cannot state (e.g. equal array lengths) may not hold.
 */
export function schemaValue(
  doc: OpenApiDocument,
  schema: JsonSchema,
  known: KnownValues = [],
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = deref<JsonSchema>(doc, schema);
  if (depth > 6) return fc.constant(null);
  if ("const" in s) return fc.constant(s.const);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  const branches = s.anyOf ?? s.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((b) => schemaValue(doc, b, known, depth + 1)));
  if (s.allOf?.length) return schemaValue(doc, merged(doc, s.allOf), known, depth + 1);
  const types = typesOf(s);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((type) => typedValue(doc, s, type, known, depth)));
}

function typedValue(
  doc: OpenApiDocument,
  s: JsonSchema,
  type: string,
  known: KnownValues,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case "string":
      return stringValue(s, known);
    case "integer":
      return fc.integer({
        min: Math.max(s.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(s.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER),
      });
    case "number":
      return fc.double({
        min: s.minimum ?? -1e6,
        max: s.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 3, 3));
      return fc.array(schemaValue(doc, s.items ?? {}, known, depth + 1), { minLength, maxLength });
    }
    case "object": {
      const properties = s.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, sub]) => [key, schemaValue(doc, sub, known, depth + 1)]),
      );
      const requiredKeys = (s.required ?? []).filter((key) => key in properties);
      const record = fc.record(model, { requiredKeys });
      const extra = s.additionalProperties;
      if (!extra || typeof extra !== "object") return record;
      const dictionary = fc.dictionary(
        fc.string({ minLength: 1, maxLength: 8 }),
        schemaValue(doc, extra, known, depth + 1),
        {
          maxKeys: 2,
        },
      );
      return fc.tuple(dictionary, record).map(([more, fixed]) => ({ ...more, ...fixed }));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A schema value as a query, path or header string. */
const asText = (value: unknown) =>
  value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);

// ---- hostile JSON --------------------------------------------------------------------------------------------------

const hugeNumber = fc
  .constantFrom(
    "1e309",
    "-1e309",
    "1e-400",
    "123456789012345678901234567890123456789012345678901234567890",
    "-0",
    "0.0000000000000000000000001",
    "9007199254740993",
    "1E+2",
    "-9223372036854775809",
  )
  .map((text) => new RawJson(text));

const deepNesting = fc
  .tuple(fc.constantFrom(100, 1_000, 10_000, 100_000), fc.boolean())
  .map(([n, arrays]) => new RawJson(arrays ? "[".repeat(n) + "]".repeat(n) : `${'{"a":'.repeat(n)}1${"}".repeat(n)}`));

const hugeArray = fc
  .tuple(
    fc.constantFrom(1_000, 10_000, 100_000),
    fc.constantFrom(
      '"0x70997970C51812dc3A010C7d01b50e0d17dc79C8"',
      '"1"',
      '"x"',
      "1",
      "null",
      "{}",
      `"${"9".repeat(78)}"`,
    ),
  )
  .map(([n, item]) => new RawJson(`[${new Array(n).fill(item).join(",")}]`));

const hugeString = fc.constantFrom(100_000, 1_000_000).map((n) => "A".repeat(n));

/** Any JSON value a client could send where something else is expected. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 3 },
  { arbitrary: hostileString, weight: 3 },
  { arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, {}, [], [null], { "": "" }), weight: 2 },
  { arbitrary: hugeNumber, weight: 2 },
  { arbitrary: deepNesting, weight: 1 },
  { arbitrary: hugeArray, weight: 1 },
  { arbitrary: hugeString, weight: 1 },
);

// ---- bodies --------------------------------------------------------------------------------------------------------

const NOT_JSON = [
  "",
  "{not json",
  "{",
  "[",
  '"unterminated',
  '{"a":1}}',
  "{'single': 'quotes'}",
  "\u0000",
  "\ufeff{}",
  "NaN",
  "undefined",
  "a=1&b=2",
  '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
  "<xml/>",
];

const contentType: fc.Arbitrary<string | null> = fc.oneof(
  { arbitrary: fc.constant("application/json"), weight: 12 },
  {
    arbitrary: fc.constantFrom<string | null>(
      null,
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "multipart/form-data; boundary=x",
      "application/json; charset=utf-16",
      "application/json; charset=bogus",
      "application/vnd.api+json",
      "APPLICATION/JSON",
      "application/json, text/plain",
    ),
    weight: 4,
  },
  { arbitrary: hostileHeaderValue, weight: 1 },
);

/** Where in a JSON value: object keys and array indexes from the root. */
type JsonPath = (string | number)[];

type Mutation =
  | { op: "set"; at: JsonPath; value: unknown }
  | { op: "drop"; at: JsonPath }
  | { op: "extra"; at: JsonPath; key: string; value: unknown };

/** Positions in the value, the root first, then breadth first (shallow fields before nested ones), at most `limit`. */
function pathsOf(value: unknown, limit = 64): JsonPath[] {
  const out: JsonPath[] = [];
  const queue: [unknown, JsonPath][] = [[value, []]];
  while (queue.length > 0 && out.length < limit) {
    const [node, at] = queue.shift()!;
    out.push(at);
    if (Array.isArray(node)) for (const [i, item] of node.entries()) queue.push([item, [...at, i]]);
    else if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) queue.push([v, [...at, k]]);
  }
  return out;
}

/** An own, enumerable property even for `__proto__`, which plain assignment would turn into a prototype change. */
function put(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const DROPPED = Symbol("dropped");

/** A copy of `value` with the mutation applied at its path; a path that no longer exists leaves the value as it is. */
function mutate(value: unknown, m: Mutation, depth = 0): unknown {
  if (depth === m.at.length) {
    if (m.op === "set") return m.value;
    if (m.op === "drop") return DROPPED;
    if (Array.isArray(value)) return [...value, m.value];
    if (value && typeof value === "object") {
      const copy = { ...value } as Record<string, unknown>;
      put(copy, m.key, m.value);
      return copy;
    }
    return value;
  }
  const step = m.at[depth];
  if (Array.isArray(value) && typeof step === "number" && step < value.length) {
    const inner = mutate(value[step], m, depth + 1);
    return inner === DROPPED ? value.filter((_, i) => i !== step) : value.map((v, i) => (i === step ? inner : v));
  }
  if (value && typeof value === "object" && !Array.isArray(value) && typeof step === "string" && step in value) {
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const next = k === step ? mutate(v, m, depth + 1) : v;
      if (next !== DROPPED) put(copy, k, next);
    }
    return copy;
  }
  return value;
}

const pathLabel = (at: JsonPath) => (at.length ? at.join(".") : "(root)");

/** One to three mutations anywhere in the value: a wrong or hostile value, a missing field or item, an extra one. */
function mutations(value: unknown): fc.Arbitrary<Mutation[]> {
  const all = pathsOf(value);
  const inner = all.filter((at) => at.length > 0);
  const containers = all.filter((at) => {
    const node = at.reduce<unknown>((v, step) => (v as Record<string | number, unknown>)[step], value);
    return node !== null && typeof node === "object";
  });
  const options: fc.MaybeWeightedArbitrary<Mutation>[] = [
    {
      arbitrary: fc.record({
        op: fc.constant("set" as const),
        at: fc.constantFrom(...(inner.length ? inner : all)),
        value: fc.oneof(hostileJson, hostileString),
      }),
      weight: 4,
    },
  ];
  if (inner.length) {
    options.push({
      arbitrary: fc.record({ op: fc.constant("drop" as const), at: fc.constantFrom(...inner) }),
      weight: 1,
    });
  }
  if (containers.length) {
    const key = fc.oneof(hostileString, fc.constant("__proto__"));
    const extra = fc.record({
      op: fc.constant("extra" as const),
      at: fc.constantFrom(...containers),
      key,
      value: hostileJson,
    });
    options.push({ arbitrary: extra, weight: 1 });
  }
  return fc.array(fc.oneof(...options), { minLength: 1, maxLength: 3 });
}

const mutationLabel = (m: Mutation) =>
  m.op === "extra" ? `extra ${pathLabel([...m.at, m.key])}` : `${m.op} ${pathLabel(m.at)}`;

/** Bodies for an operation: mostly broken (a field of the wrong type, a required one missing, an extra one, ...). */
export function bodyCase(doc: OpenApiDocument, op: Operation, known: KnownValues): fc.Arbitrary<BodyCase | null> {
  const nonJson = fc.oneof(fc.constantFrom(...NOT_JSON), hostileString);
  if (!op.body) {
    const stray = fc.oneof(hostileJson.map(toJsonText), nonJson);
    return fc.option(
      fc.record({ kind: fc.constant("unexpected body"), contentType, text: stray }),
      { freq: 2 }, // null (no body) two times in three
    );
  }
  const valid = schemaValue(doc, op.body.schema, known);
  const text = fc.oneof(
    { arbitrary: valid.map((v) => ["valid", toJsonText(v)] as const), weight: 2 },
    {
      arbitrary: valid
        .chain((v) => fc.tuple(fc.constant(v), mutations(v)))
        .map(([v, ms]) => [`mutated: ${ms.map(mutationLabel).join(", ")}`, toJsonText(ms.reduce(mutate, v))] as const),
      weight: 10,
    },
    { arbitrary: hostileJson.map((v) => ["hostile json", toJsonText(v)] as const), weight: 3 },
    { arbitrary: nonJson.map((t) => ["not json", t] as const), weight: 2 },
    {
      arbitrary: fc.tuple(valid, fc.nat()).map(([v, cut]) => {
        const full = toJsonText(v);
        return ["truncated json", full.slice(0, cut % Math.max(1, full.length))] as const;
      }),
      weight: 1,
    },
  );
  const body = fc.tuple(text, contentType).map(([[kind, t], type]) => ({ kind, contentType: type, text: t }));
  return op.body.required ? body : fc.option(body, { freq: 6 });
}

// ---- parameters, headers, auth -------------------------------------------------------------------------------------

/** Collection-query keys every list route may be sent, and the flat keys of other APIs that routes must refuse. */
const COLLECTION_KEYS = [
  "sort",
  "page[limit]",
  "page[offset]",
  "page[size]",
  "page",
  "filter",
  "filter[]",
  "filter[q]",
];
const FLAT_KEYS = ["limit", "offset", "sortBy", "sortDirection", "filters", "filters[status]"];

const QUERY_VALUES = [
  ...["-1", "0", "1", "50", "200", "201", "1000", "1001", "10000", "10001", "1.5", "1e3", "0x10", " 5", "+5"],
  ...["NaN", "Infinity", "-0", "9007199254740993", "9".repeat(100), "00000000001", "true", "false"],
  ...["2024-02-30", "2024-02-29T23:59:59Z", "0000-01-01", "9999-12-31T23:59:59.999999999+23:59"],
  ...["2024-01-01T00:00:00 02:00", "2024-13-01", "1970-01-01T00:00:00Z", "275760-09-13"],
  ...["a,b", ",", ",,,", new Array(101).fill("1").join(","), "QUEUED,COMPLETED", "1,2", "-createdAt", "-", "--kind"],
  ...["status,kind", "%", "%\\", "\\", "_", "%00", "token.mint", "TOKEN.MINT"],
];
const queryValue = fc.oneof(
  { arbitrary: fc.constantFrom(...CORE_HOSTILE_STRINGS.slice(0, 6), "a,b", "201", "2024-02-30"), weight: 3 },
  { arbitrary: fc.constantFrom(...QUERY_VALUES), weight: 3 },
  { arbitrary: hostileString, weight: 2 },
);

function queryPairs(doc: OpenApiDocument, op: Operation, known: KnownValues) {
  const documented = op.parameters.filter((p) => p.in === "query");
  const fields = documented
    .map((p) => /^filter\[([^[\]]*)\]$/.exec(p.name)?.[1])
    .filter((name): name is string => name !== undefined);
  const keyArbs: fc.MaybeWeightedArbitrary<string>[] = [
    { arbitrary: fc.constantFrom(...COLLECTION_KEYS, ...FLAT_KEYS), weight: 2 },
    {
      arbitrary: fc
        .tuple(
          fields.length ? fc.oneof(fc.constantFrom(...fields), hostileString) : hostileString,
          fc.oneof(fc.constantFrom(...OPERATORS), hostileString),
        )
        .map(([field, operator]) => `filter[${field}][${operator}]`),
      weight: 2,
    },
    { arbitrary: hostileString, weight: 1 },
  ];
  const pair = (key: fc.Arbitrary<string>, value: fc.Arbitrary<string>) => fc.record({ key, value, raw: fc.boolean() });
  const documentedPair = documented.length
    ? fc
        .constantFrom(...documented)
        .chain((p) =>
          pair(fc.constant(p.name), fc.oneof(schemaValue(doc, p.schema ?? {}, known).map(asText), queryValue)),
        )
    : undefined;
  const otherPair = pair(fc.oneof(...keyArbs), queryValue);
  const anyPair = documentedPair
    ? fc.oneof({ arbitrary: documentedPair, weight: 3 }, { arbitrary: otherPair, weight: 2 })
    : otherPair;
  return fc.array(anyPair, { maxLength: 4 });
}

/** `raw` pairs go out as written (the URL parser escapes only what it must); others are percent-encoded. */
function queryString(pairs: { key: string; value: string; raw: boolean }[]): string {
  if (pairs.length === 0) return "";
  const parts = pairs.map(({ key, value, raw }) =>
    raw ? `${key}=${value}` : `${encodeComponent(key)}=${encodeComponent(value)}`,
  );
  return `?${parts.join("&")}`;
}

function headerCase(doc: OpenApiDocument, op: Operation, known: KnownValues) {
  const knownHeaderSafe = known.filter((v) => HEADER_SAFE.test(v));
  const either = (...values: string[]) => fc.oneof(fc.constantFrom(...values, ...knownHeaderSafe), hostileHeaderValue);
  const model: Record<string, fc.Arbitrary<string>> = {
    "x-chain-id": either("31337", "1", "0", "-1", "abc", "31337.0", " 31337", "99999999999999999", "0x7a69"),
    "x-executor": either("eoa", "smart-wallet", "EOA", "Smart-Wallet"),
    "x-participant": either("me"),
    "x-organization-id": either("org"),
    "idempotency-key": fc.oneof(fc.uuid(), fc.constant("k".repeat(256)), hostileHeaderValue),
    prefer: either("respond-async", "return=minimal", "return=representation", "wait=0", "wait=99999999999"),
    "x-request-id": hostileHeaderValue,
  };
  for (const p of op.parameters) {
    if (p.in !== "header" || p.name.toLowerCase() in model) continue;
    const valid = schemaValue(doc, p.schema ?? {}, known).map((v) => asText(v).replace(/[^\t\x20-\x7e\x80-\xff]/g, ""));
    model[p.name.toLowerCase()] = fc.oneof(valid, hostileHeaderValue);
  }
  // One to three of them at a time, so that a request often fails on one header only and gets further.
  const entry = fc.oneof(...Object.entries(model).map(([name, value]) => value.map((v) => [name, v] as const)));
  return fc.oneof(
    { arbitrary: fc.constant({} as Record<string, string>), weight: 3 },
    {
      arbitrary: fc.array(entry, { minLength: 1, maxLength: 3 }).map((entries) => Object.fromEntries(entries)),
      weight: 2,
    },
  );
}

const authCase: fc.Arbitrary<AuthCase> = fc.oneof(
  { arbitrary: fc.constant({ kind: "api-key" as const }), weight: 8 },
  { arbitrary: fc.constant({ kind: "none" as const }), weight: 2 },
  {
    arbitrary: fc
      .oneof(fc.constant(`svc_${"A".repeat(43)}`), hostileHeaderValue)
      .map((value) => ({ kind: "wrong-key" as const, value })),
    weight: 1,
  },
  {
    arbitrary: fc
      .tuple(fc.constantFrom("svc_session", "svc_2fa"), hostileHeaderValue)
      .map(([name, value]) => ({ kind: "cookie" as const, name, value })),
    weight: 1,
  },
);

function pathValue(doc: OpenApiDocument, param: Parameter, known: KnownValues): fc.Arbitrary<string> {
  // Schema values draw on the known values that fit (the real token for an address), so most reach the handler.
  const value = fc.oneof(
    { arbitrary: schemaValue(doc, param.schema ?? {}, known).map(asText), weight: 3 },
    ...(known.length ? [{ arbitrary: fc.constantFrom(...known), weight: 1 }] : []),
    { arbitrary: hostileString, weight: 3 },
  );
  return fc
    .tuple(value, fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 }))
    .map(([v, raw]) => (raw ? v : encodeComponent(v)));
}

export function describeCase(c: RequestCase): string {
  const auth =
    c.auth.kind === "api-key"
      ? "X-Api-Key: <the organisation's key>"
      : c.auth.kind === "none"
        ? "(no credentials)"
        : c.auth.kind === "wrong-key"
          ? `X-Api-Key: ${JSON.stringify(excerpt(c.auth.value, 80))}`
          : `Cookie: ${c.auth.name}=${JSON.stringify(excerpt(c.auth.value, 80))}`;
  const headers = Object.entries(c.headers).map(([k, v]) => `${k}: ${JSON.stringify(excerpt(v, 120))}`);
  const body = c.body
    ? `body (${c.body.kind}, Content-Type ${JSON.stringify(c.body.contentType)}): ${JSON.stringify(excerpt(c.body.text, 400))}`
    : "no body";
  return [`${c.method} ${excerpt(c.target, 600)}`, auth, ...headers, body].join("\n  ");
}

interface QueryPair {
  key: string;
  value: string;
  raw: boolean;
}

interface CaseParts {
  /** Path parameter values, in the order the operation lists them, already encoded (or deliberately raw). */
  values: string[];
  query: QueryPair[];
  headers: Record<string, string>;
  auth: AuthCase;
  body: BodyCase | null;
  slot?: string;
}

function buildCase(op: Operation, parts: CaseParts, linkAlias = false): RequestCase {
  let path = op.path;
  op.parameters
    .filter((p) => p.in === "path")
    .forEach((p, i) => {
      path = path.replace(`{${p.name}}`, () => parts.values[i]); // a function: `$&` in a value stays literal
    });
  if (linkAlias) path = path.replace(/^\/api(?=\/v2\/)/, "");
  const c: RequestCase = {
    method: op.method,
    target: path + queryString(parts.query),
    headers: parts.headers,
    auth: parts.auth,
    body: parts.body,
    ...(parts.slot ? { slot: parts.slot } : {}),
  };
  return Object.assign(c, { [fc.toStringMethod]: () => describeCase(c) });
}

/**
 * Requests for one operation: path parameters (real values, schema values, hostile strings, raw or encoded), query
 * pairs (documented, collection syntax, flat keys), context headers, credentials and a body. With `linkAlias`, a
 * `/api/v2/...` path is sent as `/v2/...`, the spelling of the links in v2 bodies, which the host also serves.
 */
export function requestCase(
  doc: OpenApiDocument,
  op: Operation,
  known: KnownValues,
  options: { linkAlias?: boolean } = {},
): fc.Arbitrary<RequestCase> {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  return fc
    .record({
      values: fc.tuple(...pathParams.map((p) => pathValue(doc, p, known))),
      query: queryPairs(doc, op, known),
      headers: headerCase(doc, op, known),
      auth: authCase,
      body: bodyCase(doc, op, known),
    })
    .map((parts) => buildCase(op, parts, options.linkAlias));
}

// ---- the sweep: every input slot of the document, one hostile value at a time ---------------------------------------

/** The context headers every authenticated route reads, besides an operation's own header parameters. */
export const CONTEXT_HEADERS = [
  "x-chain-id",
  "x-executor",
  "x-participant",
  "x-organization-id",
  "idempotency-key",
  "prefer",
];

/** Path values sent raw as well as encoded: the server decodes them itself. */
const RAW_PATH_VALUES = ["%00", "../", "..%2f", "%", "%ZZ", "a/b", "a?b", "a#b", "a\\b"];
const SWEEP_FILTER_VALUES = ["", "\u0000", "%\\", "a,b"];
const SWEEP_JSON_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  new RawJson("1e309"),
  new RawJson("123456789012345678901234567890"),
  {},
  [],
  [null],
  new RawJson("[".repeat(10_000) + "]".repeat(10_000)),
  new RawJson(`[${new Array(10_000).fill('"x"').join(",")}]`),
];
const SWEEP_CONTENT_TYPES = [
  null,
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "application/json; charset=utf-16",
  "application/vnd.api+json",
];

const sampleOf = <T>(arb: fc.Arbitrary<T>): T => fc.sample(arb, { numRuns: 1, seed: 7 })[0];

function fitsSchema(doc: OpenApiDocument, schema: JsonSchema | undefined, value: string): boolean {
  const s = deref<JsonSchema>(doc, schema ?? {});
  if (s.enum) return s.enum.includes(value);
  if (s.pattern && !new RegExp(s.pattern).test(value)) return false;
  return value.length >= (s.minLength ?? 0) && value.length <= (s.maxLength ?? Number.POSITIVE_INFINITY);
}

/**
 * Cases derived from the document, deterministic: a request that should pass validation (known or schema values in the
 * path, a schema-valid body, the API key), then one input at a time made hostile: the credentials, each context header
 * and header parameter, each path parameter (encoded and raw), each query parameter, every `filter[field][operator]`
 * of a list route, the collection and flat keys, every position in the body, the whole body and its Content-Type.
 */
export function sweepCases(doc: OpenApiDocument, op: Operation, known: KnownValues): RequestCase[] {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const values = pathParams.map((p) => {
    const fit = known.find((k) => fitsSchema(doc, p.schema, k));
    return encodeComponent(fit ?? asText(sampleOf(schemaValue(doc, p.schema ?? {}, known))));
  });
  const bodyValue = op.body ? sampleOf(schemaValue(doc, op.body.schema, known)) : undefined;
  const validBody: BodyCase | null = op.body
    ? { kind: "valid", contentType: "application/json", text: toJsonText(bodyValue) }
    : null;
  const base: CaseParts = { values, query: [], headers: {}, auth: { kind: "api-key" }, body: validBody };
  const cases: RequestCase[] = [];
  const add = (slot: string, over: Partial<CaseParts>) => cases.push(buildCase(op, { ...base, ...over, slot }));
  const hostile = CORE_HOSTILE_STRINGS;
  const headerValues = ["", "%00", "\\", "'", "-1", "A".repeat(3000)];

  add("none", {});
  add("auth", { auth: { kind: "none" } });
  add("auth", { auth: { kind: "wrong-key", value: `svc_${"A".repeat(43)}` } });
  for (const name of ["svc_session", "svc_2fa"]) add("auth", { auth: { kind: "cookie", name, value: "%\\;=,x" } });

  const headerNames = new Set([
    ...CONTEXT_HEADERS,
    ...op.parameters.filter((p) => p.in === "header").map((p) => p.name),
  ]);
  for (const name of headerNames)
    for (const value of headerValues) add(`header ${name}`, { headers: { [name.toLowerCase()]: value } });

  pathParams.forEach((p, i) => {
    const at = (value: string) => values.map((v, j) => (j === i ? value : v));
    for (const value of hostile) add(`path ${p.name}`, { values: at(encodeComponent(value)) });
    for (const value of RAW_PATH_VALUES) add(`path ${p.name} (raw)`, { values: at(value) });
  });

  for (const p of queryParams) {
    for (const value of hostile) add(`query ${p.name}`, { query: [{ key: p.name, value, raw: false }] });
    add(`query ${p.name}`, { query: [{ key: p.name, value: "%00", raw: true }] });
  }
  const fields = queryParams
    .map((p) => /^filter\[([^[\]]*)\]$/.exec(p.name)?.[1])
    .filter((name): name is string => name !== undefined);
  for (const field of fields) {
    for (const operator of [...OPERATORS, "bogus"]) {
      for (const value of SWEEP_FILTER_VALUES) {
        const key = `filter[${field}][${operator}]`;
        add(`query ${key}`, { query: [{ key, value, raw: false }] });
      }
    }
  }
  if (queryParams.length > 0) {
    for (const key of [...COLLECTION_KEYS, ...FLAT_KEYS, "filter[nope]", "filter[q][eq]", "filter[a][b][c]"]) {
      for (const value of ["", "-1", "x", "\u0000"]) add(`query ${key}`, { query: [{ key, value, raw: false }] });
    }
    const twoSorts = [
      { key: "sort", value: "status", raw: false },
      { key: "sort", value: "kind", raw: false },
    ];
    add("query sort (twice)", { query: twoSorts });
  }

  if (op.body && validBody) {
    for (const at of pathsOf(bodyValue, 16)) {
      for (const value of [...hostile, ...SWEEP_JSON_VALUES]) {
        const text = toJsonText(mutate(bodyValue, { op: "set", at, value }));
        add(`body set ${pathLabel(at)}`, {
          body: { kind: `set ${pathLabel(at)}`, contentType: "application/json", text },
        });
      }
      if (at.length > 0) {
        const text = toJsonText(mutate(bodyValue, { op: "drop", at }));
        add(`body drop ${pathLabel(at)}`, {
          body: { kind: `drop ${pathLabel(at)}`, contentType: "application/json", text },
        });
      }
    }
    const extra = toJsonText(mutate(bodyValue, { op: "extra", at: [], key: "__proto__", value: { polluted: true } }));
    add("body extra __proto__", { body: { kind: "extra __proto__", contentType: "application/json", text: extra } });
    for (const text of NOT_JSON)
      add("body not json", { body: { kind: "not json", contentType: "application/json", text } });
    for (const contentType of SWEEP_CONTENT_TYPES) {
      add("body Content-Type", { body: { ...validBody, kind: "valid", contentType } });
    }
  }
  return cases;
}

export { OPERATORS };
