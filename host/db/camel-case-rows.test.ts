import { CamelCasePlugin, type PluginTransformResultArgs, type QueryId, type UnknownRow } from "kysely";
import { describe, expect, it } from "vitest";
import { RowCamelCasePlugin } from "./camel-case-rows.ts";

const resultOf = (rows: UnknownRow[]) =>
  ({ queryId: { queryId: "q" } as QueryId, result: { rows, numAffectedRows: 3n } }) as PluginTransformResultArgs;

const bothMap = async (rows: () => UnknownRow[]) => {
  const ours = await new RowCamelCasePlugin().transformResult(resultOf(rows()));
  const kysely = await new CamelCasePlugin().transformResult(resultOf(rows()));
  return { ours, kysely };
};

describe("RowCamelCasePlugin", () => {
  it("maps rows exactly as kysely's CamelCasePlugin: nested objects and arrays, dates, buffers, nulls", async () => {
    const at = new Date("2026-11-27T05:00:00Z");
    const rows = () => [
      {
        created_at: at,
        block_number: 12n,
        result_json: { token_address: "0x1", nested_list: [{ inner_key: 1 }, 2, null] },
        tags: ["a_b", { tag_name: "x" }],
        raw_bytes: Buffer.from("hi"),
        no_value: null,
        plain: "text",
      },
      { created_at: at, block_number: 13n, result_json: null, tags: [], raw_bytes: null, no_value: 1, plain: "" },
    ];
    const { ours, kysely } = await bothMap(rows);
    expect(ours).toEqual(kysely);
    expect(ours.rows[0]).toEqual({
      createdAt: at,
      blockNumber: 12n,
      resultJson: { tokenAddress: "0x1", nestedList: [{ innerKey: 1 }, 2, null] },
      tags: ["a_b", { tagName: "x" }],
      rawBytes: Buffer.from("hi"),
      noValue: null,
      plain: "text",
    });
    expect(ours.numAffectedRows).toBe(3n);
  });

  it("falls back to the plugin's own mapping for a __proto__ column or two columns of one camelCased name", async () => {
    const proto = JSON.parse('[{"__proto__": {"polluted_key": true}, "a_b": 1}]') as UnknownRow[];
    const { ours, kysely } = await bothMap(() => structuredClone(proto));
    expect(ours).toEqual(kysely);
    expect(({} as Record<string, unknown>).pollutedKey).toBeUndefined();
    const twice = await bothMap(() => [{ a_b: 1, aB: 2 }]);
    expect(twice.ours).toEqual(twice.kysely);
  });

  it("leaves an empty result and a result without rows as they are", async () => {
    const empty = await bothMap(() => []);
    expect(empty.ours).toEqual(empty.kysely);
  });
});
