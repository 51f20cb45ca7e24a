// The index's handlers write through Ponder's store API only. A write through `context.db.sql` makes Ponder flush
// and forget its whole row cache for the rest of the backfill (every table then reads the database on a miss):
// the catalogue adoption's five raw updates at each system's creation cost the benchmark's backfill ~6 s of reads.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");
const RAW_SQL = /\bdb\.sql\b|\{[^}]*\bsql\b[^}]*\}\s*=\s*context\.db\b/;

const handlerFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "api" ? [] : handlerFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });

describe("the index's handlers", () => {
  it("never write through raw SQL", () => {
    const files = handlerFiles(SRC);
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((file) => RAW_SQL.test(readFileSync(file, "utf8")));
    expect(offenders.map((file) => file.slice(SRC.length + 1))).toEqual([]);
  });
});
