import { describe, expect, it } from "vitest";
import { fromServiceName, toServiceName } from "./service-names.ts";

describe("service names", () => {
  it("writes task identifiers and job keys in the spec's alphabet, reversibly", () => {
    for (const id of ["host:send", "send:31337:0xabcdef", "provision:0191-ab:31337", "a_b", "x.y/z", "plain-name"]) {
      const name = toServiceName(id);
      expect(name).toMatch(/^[a-zA-Z0-9_-]+$/);
      expect(fromServiceName(name)).toBe(id);
    }
    expect(toServiceName("host:send")).toBe("host_3asend");
  });
});
