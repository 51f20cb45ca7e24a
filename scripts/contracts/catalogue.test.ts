// The registrations (the feature catalogue, ADDON_CONTRACTS) and what is derived from them agree: every registered
// feature and add-on is compiled, published in abis/, deployed with the root and merged into the index's source,
// and every feature event the index logs is one its contract emits, with the arguments the catalogue names.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AbiEvent } from "viem";
import { describe, expect, it } from "vitest";
import { ADDON_INSTANCE_ABIS, FEATURE_ABIS } from "../../abis/catalogue.ts";
import { FEATURE_CATALOGUE, featureEntry, featureEvents, TOKEN_FEATURES } from "../../domain/features/catalogue.ts";
import { type BuildOutput, PUBLISHED_ABIS, SHIPPED_BUILD } from "./compile.ts";
import { ADDON_CONTRACTS, FEATURE_CONTRACTS } from "./platform-contracts.ts";

const shipped = JSON.parse(readFileSync(SHIPPED_BUILD, "utf8")) as BuildOutput;
const FEATURE_IDS_SOL = readFileSync(join(import.meta.dirname, "../../contracts/features/FeatureIds.sol"), "utf8");

/** A contract the shipped build compiled (with bytecode) and abis/ publishes. */
function expectCompiledAndPublished(contract: string) {
  expect(shipped.contracts[contract]?.bytecode.length ?? 0, `${contract} is not compiled`).toBeGreaterThan(2);
  expect(PUBLISHED_ABIS, `${contract} is not published in abis/`).toContain(contract);
}

const eventOf = (contract: string, name: string) =>
  shipped.contracts[contract]?.abi.find((item): item is AbiEvent => item.type === "event" && item.name === name);

describe("the feature catalogue", () => {
  it.each(TOKEN_FEATURES)("%s is compiled, published, deployed with the root and indexed", (id) => {
    const { contract } = FEATURE_CATALOGUE[id];
    expectCompiledAndPublished(contract);
    expect(FEATURE_CONTRACTS[id], `${id} is not deployed with the root`).toBe(contract);
    expect(FEATURE_ABIS[TOKEN_FEATURES.indexOf(id)], `abis/catalogue.ts lacks ${contract}`).toEqual(
      shipped.contracts[contract].abi,
    );
    expect(FEATURE_IDS_SOL, `contracts/features/FeatureIds.sol lacks "${id}"`).toContain(`"${id}"`);
  });

  it.each(TOKEN_FEATURES)("%s: each event the index logs is its contract's, naming accounts by address", (id) => {
    const { contract, events = {} } = featureEntry(id);
    for (const [name, { sender = "sender", involved }] of Object.entries(events)) {
      const event = eventOf(contract, name);
      expect(event, `${contract} emits no ${name}`).toBeDefined();
      for (const argument of [sender, ...involved]) {
        const input = event?.inputs.find((i) => i.name === argument);
        expect(input?.type, `${contract}.${name}(${argument})`).toBe("address");
      }
    }
  });

  it("names each logged event once across the features", () => {
    const names = featureEvents().map(([name]) => name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it("merges every feature and nothing else into the TokenFeature source", () => {
    expect(FEATURE_ABIS).toHaveLength(TOKEN_FEATURES.length);
  });
});

describe("the add-ons (ADDON_CONTRACTS)", () => {
  it.each(Object.entries(ADDON_CONTRACTS))("%s is compiled, published and indexed", (_type, { factory, instance }) => {
    expectCompiledAndPublished(factory);
    expectCompiledAndPublished(instance);
    expect(ADDON_INSTANCE_ABIS, `abis/catalogue.ts lacks ${instance}`).toContainEqual(shipped.contracts[instance].abi);
  });

  it("merges every add-on's instance and nothing else into the AddonInstance source", () => {
    expect(ADDON_INSTANCE_ABIS).toHaveLength(Object.keys(ADDON_CONTRACTS).length);
  });
});
