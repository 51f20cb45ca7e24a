// docs/configuration.md, generated from host/config.ts's ConfigSchema and each built-in plugin's `settings` schema: each
// setting's owner, description, accepted values and default, so the page cannot drift from what the platform reads
// (scripts/config-doc.test.ts fails when stale).
import { join, resolve } from "node:path";
import { z } from "zod";
import { ConfigSchema, type SettingsOwner } from "../host/config.ts";
import { plugins } from "../plugins/index.ts";
import { START_DEFAULTS } from "./start-defaults.ts";

export const CONFIG_DOC_PATH = join(resolve(import.meta.dirname, ".."), "docs", "configuration.md");

interface SettingMeta {
  description?: string;
  /** The default as the page shows it, where it is not the schema's own value (computed, or a place). */
  defaultText?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: zod's internal definitions are read generically, node by node
type Def = any;
const defOf = (schema: z.ZodType): Def => (schema as unknown as { def: Def }).def;

/** The schema a setting's value is checked against, without its default, optional or output transform. */
function valueSchema(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  if (def.type === "default" || def.type === "optional") return valueSchema(def.innerType);
  if (def.type === "pipe") return valueSchema(def.in);
  return schema;
}

/** The schema's own default value, if it has one. */
function schemaDefault(schema: z.ZodType): unknown {
  const def = defOf(schema);
  if (def.type === "default") return def.defaultValue;
  if (def.type === "optional") return schemaDefault(def.innerType);
  if (def.type === "pipe") return schemaDefault(def.in);
  return undefined;
}

const code = (value: unknown) => `\`${String(value)}\``;

/** A schema's checks' definitions (bounds, formats, patterns with their messages). */
const checksOf = (schema: z.ZodType): Def[] =>
  (defOf(schema).checks ?? []).map((check: Def) => ({ ...check._zod.def, message: check._zod.def.error?.({}) }));

/** What a setting accepts, in a few words. */
function accepted(schema: z.ZodType): string {
  const inner = valueSchema(schema);
  const def = defOf(inner);
  const checks = checksOf(inner);
  switch (def.type) {
    case "enum":
      return Object.values(def.entries as Record<string, string>)
        .map(code)
        .join(", ");
    case "number": {
      const kind = checks.some((c) => c.format?.includes("int")) ? "integer" : "number";
      const low = checks.find((c) => c.check === "greater_than");
      const high = checks.find((c) => c.check === "less_than");
      if (low && high) return `${kind}, ${low.value} to ${high.value}`;
      if (low) return `${kind}, ${low.inclusive ? "at least" : "above"} ${low.value}`;
      return kind;
    }
    case "bigint":
      return "integer";
    case "undefined":
      return "nothing (refused when set)";
    case "string": {
      const pattern = checks.find((c) => c.format === "regex");
      // A pattern's own message says it best; else the URL format, else the pattern itself.
      if (pattern?.message) return pattern.message;
      if (checks.some((c) => c.format === "url")) return "URL";
      if (pattern) return `text matching \`${pattern.pattern.source}\``;
      const min = checks.find((c) => c.check === "min_length")?.minimum;
      return min > 1 ? `text, at least ${min} characters` : "text";
    }
    default:
      return def.type;
  }
}

function defaultOf(name: string, schema: z.ZodType, meta: SettingMeta): string {
  const own = meta.defaultText ?? (schemaDefault(schema) === undefined ? "unset" : code(schemaDefault(schema)));
  const started = START_DEFAULTS[name];
  return started === undefined ? own : `${code(started)} under \`npm start\`, else ${own}`;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The owner the page names for the host core's own settings. */
export const CORE_OWNER = "core";

/** Every setting with its owner: the host core's first, then each plugin's that has settings, in mount order. */
export function settingsByOwner(owners: readonly SettingsOwner[] = plugins): [owner: string, z.ZodObject][] {
  return [
    [CORE_OWNER, ConfigSchema],
    ...owners.flatMap((plugin): [string, z.ZodObject][] => (plugin.settings ? [[plugin.id, plugin.settings]] : [])),
  ];
}

/** The page's text. Throws for a setting without a description: every setting says what it does. */
export function configurationDoc(owners: readonly SettingsOwner[] = plugins): string {
  const rows = settingsByOwner(owners).flatMap(([owner, settings]) =>
    Object.entries(settings.shape).map(([name, schema]) => {
      const meta = (z.globalRegistry.get(schema as z.ZodType) ?? {}) as SettingMeta;
      if (!meta.description) throw new Error(`${owner}: ${name} has no description (.describe() or .meta())`);
      const values = accepted(schema as z.ZodType);
      const byDefault = defaultOf(name, schema as z.ZodType, meta);
      return `| \`${name}\` | ${owner} | ${cell(byDefault)} | ${cell(values)} | ${cell(meta.description)} |`;
    }),
  );
  return [
    "# Configuration",
    "",
    "<!-- Generated from host/config.ts (ConfigSchema) and the plugins' settings schemas (plugins/<name>/settings.ts)",
    "by `npm run build:docs`: edit the schemas, not this page. -->",
    "",
    "Every setting is an environment variable, validated when the platform starts (an invalid value stops it with",
    "one line per setting). `npm start` runs on the embedded defaults: nothing needs to be set on a development",
    "machine. In production set at least `CUSTODY_MASTER_KEY`, and `DATABASE_URL` and `RPC_URL` (or `CHAINS`) for",
    "a database and chains of your own.",
    "",
    "The owner is the host core or the plugin that declares the setting (and alone reads it, as `ctx.settings`).",
    "",
    "| variable | owner | default | accepts | what it does |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    "Benchmark settings (`BENCH_*`) are described in [bench/README.md](../bench/README.md).",
    "",
  ].join("\n");
}
