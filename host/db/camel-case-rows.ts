// kysely's CamelCasePlugin with the same result, mapped faster: every row of one result has the same columns, so each
// column list gets one compiled mapper (an object literal of the camelCased keys) instead of a key-by-key copy per
// row; a 50-row page spent ~8 % of the host's CPU in that copy. Nested plain objects and arrays are mapped as the
// plugin maps them.
import { CamelCasePlugin, type PluginTransformResultArgs, type QueryResult, type UnknownRow } from "kysely";

type RowMapper = (row: UnknownRow) => UnknownRow;

/** Column lists kept; more (ad-hoc selections) start the cache afresh. */
const MAX_MAPPERS = 1000;

const isPlainObject = (value: object) => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

export class RowCamelCasePlugin extends CamelCasePlugin {
  readonly #mappers = new Map<string, RowMapper | null>();

  override async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const rows = args.result.rows;
    const mapper = Array.isArray(rows) && rows.length > 0 ? this.#mapperFor(rows[0]!) : null;
    if (!mapper) return super.transformResult(args);
    return { ...args.result, rows: rows.map(mapper) };
  }

  /** A nested value as the plugin maps it: plain objects' keys camelCased, arrays element by element. */
  readonly #nested = (value: unknown): unknown => {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value))
      return value.map((item) =>
        item !== null && typeof item === "object" && isPlainObject(item) ? this.mapRow(item) : item,
      );
    return isPlainObject(value) ? this.mapRow(value as UnknownRow) : value;
  };

  #mapperFor(row: UnknownRow): RowMapper | null {
    const columns = Object.keys(row);
    const signature = columns.join("\0");
    let mapper = this.#mappers.get(signature);
    if (mapper === undefined) {
      const keys = columns.map((column) => this.camelCase(column));
      // `__proto__:` in a literal would set the prototype, and two columns may map to one key: the plugin's own path.
      const literal = !keys.includes("__proto__") && new Set(keys).size === keys.length;
      const fields = columns.map((column, i) => `${JSON.stringify(keys[i])}: nested(row[${JSON.stringify(column)}])`);
      mapper = literal
        ? (new Function("nested", `return (row) => ({ ${fields.join(", ")} });`)(this.#nested) as RowMapper)
        : null;
      if (this.#mappers.size >= MAX_MAPPERS) this.#mappers.clear();
      this.#mappers.set(signature, mapper);
    }
    return mapper;
  }
}
