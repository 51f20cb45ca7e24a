// The host's control catalogue (domain/compliance/control-types.ts) against the compiled modules: the same type ids and
// module sets, and params JSON encoded by the catalogue accepted by each module as its parameters.
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTROL_TYPES, type ControlTypeId } from "../../domain/compliance/control-types.ts";
import {
  type ComplianceFixture,
  MODULE_NAMES,
  MODULE_TYPE_IDS,
  type ModuleName,
  setupCompliance,
} from "./compliance-fixture.ts";

/** A params JSON per type id, as an organisation writes it in a compliance template. */
const PARAMS: Record<ControlTypeId, unknown> = {
  "address-block-list-v2": { blocked: ["0x00000000000000000000000000000000000000b1"] },
  "capital-raise-limit": { maxTotal: "1000000", periodLimit: "1000", periodLength: 86_400 },
  "capped-v2": { maxSupply: "21000000" },
  "collateral-v2": { oracle: "0x00000000000000000000000000000000000000c1", ratioBps: 12_500 },
  "country-allow-list-v2": { countries: [56, 276] },
  "country-block-list-v2": { countries: [408] },
  "identity-allow-list-v2": { identities: ["0x00000000000000000000000000000000000000d1"] },
  "identity-block-list-v2": {},
  "identity-verification-v2": {
    expression: [{ nodeType: "TOPIC", topic: "KYC" }, { nodeType: "TOPIC", topic: "AML" }, { nodeType: "OR" }],
  },
  "investor-count-v2": { maxInvestors: 500, countries: [276], countryLimits: [99] },
  "time-lock-v2": { lockDuration: 3600 },
  "transfer-approval-v2": { approvers: ["0x00000000000000000000000000000000000000e1"], approvalValidity: 600 },
  "country-allow-list": { countries: [840] },
  "investor-count": { maxInvestors: 10 },
  "transfer-approval": { approvers: ["0x00000000000000000000000000000000000000e2"] },
};

const moduleNamed = (typeId: string): ModuleName => {
  const name = MODULE_NAMES.find((n) => MODULE_TYPE_IDS[n] === typeId);
  if (!name) throw new Error(`No compiled module has type id ${typeId}`);
  return name;
};

describe("control catalogue against the compliance modules", () => {
  let f: ComplianceFixture;

  beforeAll(async () => {
    f = await setupCompliance();
  });
  afterAll(async () => {
    await f?.chain.stop();
  });

  it("names every compiled module, with its module set", async () => {
    expect(CONTROL_TYPES.map((t) => t.id).sort()).toEqual(Object.values(MODULE_TYPE_IDS).sort());
    for (const type of CONTROL_TYPES) {
      const name = moduleNamed(type.id);
      expect(await f.read(f.modules[name], name, "moduleSetVersion")).toBe(type.moduleSetVersion);
    }
  });

  it("encodes params that each module accepts and stores as given; one token takes a whole module set", async () => {
    for (const version of [1, 2]) {
      const token: Address = await f.newToken();
      for (const type of CONTROL_TYPES.filter((t) => t.moduleSetVersion === version)) {
        const name = moduleNamed(type.id);
        const params = type.encodeParams(PARAMS[type.id]);
        await f.addModule(token, name, params);
        expect(await f.read(f.modules[name], name, "parametersOf", [token]), type.id).toBe(params);
      }
      expect(await f.read(f.engine, "Compliance", "moduleSetVersionOf", [token])).toBe(version);
    }
  });
});
