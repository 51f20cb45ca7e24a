// A strict reader of the Prometheus text exposition format (0.0.4), for tests. No parser of the format is installed
// (prom-client only writes it), so this one refuses anything the format does not allow: a sample before its TYPE, a
// malformed name, label or value, a histogram whose buckets are not cumulative or whose +Inf bucket is not _count.
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
export interface Family {
  name: string;
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = ["counter", "gauge", "histogram", "summary", "untyped"] as const;

function parseValue(text: string, line: string): number {
  if (text === "+Inf") return Number.POSITIVE_INFINITY;
  if (text === "-Inf") return Number.NEGATIVE_INFINITY;
  if (text === "NaN") return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value "${text}" in: ${line}`);
  return Number(text);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let at = 0;
  while (at < text.length) {
    const eq = text.indexOf("=", at);
    const name = text.slice(at, eq);
    if (eq < 0 || !LABEL.test(name) || text[eq + 1] !== '"') throw new Error(`bad label at ${at} in: ${line}`);
    let value = "";
    let i = eq + 2;
    for (; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === "\\") {
        const next = text[++i];
        if (next === "n") value += "\n";
        else if (next === "\\" || next === '"') value += next;
        else throw new Error(`bad escape in: ${line}`);
      } else value += text[i];
    }
    if (text[i] !== '"') throw new Error(`unterminated label value in: ${line}`);
    if (name in labels) throw new Error(`label ${name} repeated in: ${line}`);
    labels[name] = value;
    at = i + 1;
    if (text[at] === ",") at++;
    else if (at < text.length) throw new Error(`expected , after a label in: ${line}`);
  }
  return labels;
}

/** The family a sample belongs to (histogram and summary samples carry a suffix). */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  if (families.has(name)) return families.get(name);
  const base = name.replace(/_(bucket|sum|count)$/, "");
  const family = families.get(base);
  return family && (family.type === "histogram" || family.type === "summary") ? family : undefined;
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      const [, keyword, name, ...rest] = line.split(" ");
      if (keyword !== "HELP" && keyword !== "TYPE") continue; // a comment
      if (!name || !NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      const family = families.get(name) ?? { name, type: "untyped", help: "", samples: [] };
      if (keyword === "HELP") family.help = rest.join(" ");
      else {
        const type = rest.join(" ") as Family["type"];
        if (!TYPES.includes(type)) throw new Error(`bad type in: ${line}`);
        if (family.samples.length > 0) throw new Error(`TYPE after samples in: ${line}`);
        family.type = type;
      }
      families.set(name, family);
      continue;
    }
    const match = line.match(/^([^\s{]+)(?:\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?$/);
    if (!match) throw new Error(`bad sample line: ${line}`);
    const [, name, labelText, value] = match;
    if (!NAME.test(name!)) throw new Error(`bad metric name in: ${line}`);
    const family = familyOf(name!, families);
    if (!family) throw new Error(`sample without a TYPE: ${line}`);
    family.samples.push({ name: name!, labels: parseLabels(labelText ?? "", line), value: parseValue(value!, line) });
  }
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

function checkHistogram(family: Family) {
  const series = new Map<string, { buckets: [number, number][]; count?: number }>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (s.name.endsWith("_bucket")) {
      if (le === undefined) throw new Error(`${s.name} without le`);
      entry.buckets.push([parseValue(le, s.name), s.value]);
    } else if (s.name.endsWith("_count")) entry.count = s.value;
  }
  for (const [key, { buckets, count }] of series) {
    for (let i = 1; i < buckets.length; i++) {
      if (!(buckets[i]![0] > buckets[i - 1]![0]) || buckets[i]![1] < buckets[i - 1]![1])
        throw new Error(`${family.name}${key}: buckets not increasing and cumulative`);
    }
    const last = buckets.at(-1);
    if (!last || last[0] !== Number.POSITIVE_INFINITY || last[1] !== count)
      throw new Error(`${family.name}${key}: the +Inf bucket must equal _count`);
  }
}

/** The value of the one sample of `name` whose labels include `labels`. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const family = familyOf(name, families);
  const sample = family?.samples.find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return sample?.value;
}
