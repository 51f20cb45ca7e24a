// Two platforms in one process (as the end-to-end tests run them) keep apart what their bundlers remember.
import { expect, it } from "vitest";
import type { Databases } from "../../host/db/database.ts";
import { bundlerState } from "./bundler-state.ts";

it("gives each platform its own caches and wakes, shared by the parts of one", () => {
  const one = { db: {} as Databases };
  const other = { db: {} as Databases };
  bundlerState(one).validation.opcodeRules.cleanPaths.add("31337|CALL:0xabc");
  bundlerState(one).wakes.set("31337:org:false", async () => null);
  expect(bundlerState({ ...one }).validation.opcodeRules.cleanPaths.has("31337|CALL:0xabc")).toBe(true);
  expect(bundlerState(other).validation.opcodeRules.cleanPaths.size).toBe(0);
  expect(bundlerState(other).wakes.size).toBe(0);
  expect(bundlerState(other).validation.chainHeads).not.toBe(bundlerState(one).validation.chainHeads);
});
