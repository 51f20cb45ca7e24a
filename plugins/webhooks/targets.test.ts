import { describe, expect, it } from "vitest";
import { isPublicAddress, type Resolve, refusedAddress, refusedTarget, targetPolicy } from "./targets.ts";

const NONE = targetPolicy([]);
const LOOPBACK = targetPolicy(["127.0.0.0/8", "::1/128"]);
/** A resolver that answers from a table, so no test asks the network. */
const resolver =
  (table: Record<string, string[]>): Resolve =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return found;
  };

describe("webhook target ranges", () => {
  it("knows the special-purpose ranges and names the one an address is in", () => {
    const cases: [string, RegExp][] = [
      ["127.0.0.1", /loopback range 127\.0\.0\.0\/8/],
      ["::1", /loopback range ::1\/128/],
      ["10.1.2.3", /private range 10\.0\.0\.0\/8/],
      ["172.20.0.1", /private range 172\.16\.0\.0\/12/],
      ["192.168.1.1", /private range 192\.168\.0\.0\/16/],
      ["fd12::1", /unique-local \(private\) range fc00::\/7/],
      ["169.254.1.1", /link-local range 169\.254\.0\.0\/16/],
      ["fe80::1", /link-local range fe80::\/10/],
      ["100.64.0.1", /carrier-grade NAT\) range 100\.64\.0\.0\/10/],
      ["0.0.0.0", /this-network/],
      ["::", /unspecified range ::\/128/],
      ["224.0.0.1", /multicast/],
      ["::ffff:10.0.0.1", /private range 10\.0\.0\.0\/8/],
      ["::ffff:a00:1", /private range 10\.0\.0\.0\/8/],
      ["64:ff9b::a00:1", /NAT64/],
    ];
    for (const [address, reason] of cases) expect(refusedAddress(address, NONE), address).toMatch(reason);
    for (const address of ["93.184.216.34", "2606:4700::1111", "8.8.8.8"]) {
      expect(refusedAddress(address, NONE), address).toBeNull();
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it("allows a special range only when listed, per range", () => {
    expect(refusedAddress("127.0.0.1", LOOPBACK)).toBeNull();
    expect(refusedAddress("::1", LOOPBACK)).toBeNull();
    expect(refusedAddress("10.0.0.1", LOOPBACK)).toMatch(
      /private range 10\.0\.0\.0\/8, which WEBHOOKS_PRIVATE_TARGET_RANGES/,
    );
    expect(refusedAddress("169.254.1.1", LOOPBACK)).toMatch(/link-local/);
    const tenTwenty = targetPolicy(["10.20.0.0/16"]);
    expect(refusedAddress("10.20.3.4", tenTwenty)).toBeNull();
    expect(refusedAddress("10.21.0.1", tenTwenty)).toMatch(/private range 10\.0\.0\.0\/8/);
    expect(refusedAddress("127.0.0.1", tenTwenty)).toMatch(/loopback/);
  });

  it("the metadata addresses only when listed exactly, whatever wider range is listed", () => {
    const linkLocal = targetPolicy(["169.254.0.0/16", "fc00::/7"]);
    expect(refusedAddress("169.254.1.1", linkLocal)).toBeNull();
    expect(refusedAddress("169.254.169.254", linkLocal)).toMatch(/cloud metadata address.*169\.254\.169\.254\/32/);
    expect(refusedAddress("fd00:ec2::254", linkLocal)).toMatch(/cloud metadata address.*fd00:ec2::254\/128/);
    expect(refusedAddress("::ffff:169.254.169.254", linkLocal)).toMatch(/cloud metadata/);
    const exact = targetPolicy(["169.254.169.254/32"]);
    expect(refusedAddress("169.254.169.254", exact)).toBeNull();
    expect(refusedAddress("169.254.169.253", exact)).toMatch(/link-local/);
  });
});

describe("webhook URLs", () => {
  const dns = resolver({
    "hooks.example.com": ["93.184.216.34"],
    "split.example.com": ["93.184.216.34", "10.0.0.7"],
    "metadata.example.com": ["169.254.169.254"],
    localhost: ["127.0.0.1", "::1"],
  });
  const refused = (url: string, policy = NONE) => refusedTarget(url, policy, dns);

  it("name the rule a URL breaks", async () => {
    expect(await refused("not a url")).toBe("url is not a valid URL");
    expect(await refused("file:///etc/passwd")).toMatch(/^url's scheme file is not allowed/);
    expect(await refused("gopher://hooks.example.com/")).toMatch(/^url's scheme gopher is not allowed/);
    expect(await refused("ftp://hooks.example.com/")).toMatch(/^url's scheme ftp is not allowed/);
    expect(await refused("https://user:pw@hooks.example.com/")).toMatch(/credentials/);
    expect(await refused("https://hooks.example.com:25/")).toMatch(/port 25 is a non-HTTP service port/);
    expect(await refused("http://hooks.example.com/hook")).toMatch(/must use https: hooks\.example\.com is a public/);
    expect(await refused("https://169.254.169.254/latest")).toMatch(
      /^url's address 169\.254\.169\.254 is the cloud metadata/,
    );
    expect(await refused("https://metadata.example.com/")).toMatch(
      /resolves to 169\.254\.169\.254 is the cloud metadata/,
    );
    expect(await refused("https://[::ffff:10.0.0.1]/")).toMatch(/private range 10\.0\.0\.0\/8/);
    expect(await refused("https://nowhere.example.com/")).toBe("url's host nowhere.example.com does not resolve");
    expect(await refused("https://hooks.example.com/hook")).toBeNull();
    expect(await refused("https://hooks.example.com:8443/hook")).toBeNull();
  });

  it("check every address a name resolves to", async () => {
    expect(await refused("https://split.example.com/")).toMatch(
      /split\.example\.com resolves to 10\.0\.0\.7 is in the private/,
    );
  });

  it("allow http and https to a listed range (the embedded defaults list loopback)", async () => {
    expect(await refused("http://127.0.0.1:9999/hook", LOOPBACK)).toBeNull();
    expect(await refused("http://localhost:9999/hook", LOOPBACK)).toBeNull();
    expect(await refused("http://localhost:9999/hook")).toMatch(
      /localhost resolves to 127\.0\.0\.1 is in the loopback/,
    );
    expect(await refused("http://10.0.0.1/hook", LOOPBACK)).toMatch(/private range 10\.0\.0\.0\/8/);
  });
});
