import { describe, expect, it } from "vitest";
import { directoryFields } from "./directory-shape.ts";

const A = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const CHECKSUMMED = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

describe("directoryFields", () => {
  it("nests the entries as the spec does, checksummed, missing ones as null, links left out", () => {
    const fields = directoryFields(
      new Map([
        ["forwarder", A],
        ["contractIdentityImplementation", A],
        ["addonRegistryImplementation", A],
        ["addonRegistry", A],
      ]),
    );
    expect(fields.forwarder).toBe(CHECKSUMMED);
    expect(fields.systemFactory).toBeNull();
    expect(fields.identityImplementations).toEqual({
      identityImplementation: null,
      contractIdentityImplementation: CHECKSUMMED,
    });
    expect(Object.keys(fields.systemImplementations)).toHaveLength(12);
    expect(fields.systemImplementations.addonRegistryImplementation).toBe(CHECKSUMMED);
    expect(fields.systemImplementations.complianceImplementation).toBeNull();
    expect(fields).not.toHaveProperty("addonRegistry");
    expect(Object.keys(fields)).toHaveLength(8);
  });
});
