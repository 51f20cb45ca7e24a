import { describe, expect, it } from "vitest";
import { isPrivateAddress, refusedTarget } from "./targets.ts";

describe("webhook targets", () => {
  it("knows loopback, private and link-local addresses", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "0.0.0.0",
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ["93.184.216.34", "2606:4700::1111", "8.8.8.8"])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it("wants https on a public address unless private targets are allowed", async () => {
    expect(await refusedTarget("http://93.184.216.34/hook", false)).toBe("url must use https");
    expect(await refusedTarget("https://127.0.0.1/hook", false)).toMatch(/loopback/);
    expect(await refusedTarget("https://localhost/hook", false)).toMatch(/loopback/);
    expect(await refusedTarget("https://[::1]/hook", false)).toMatch(/loopback/);
    expect(await refusedTarget("https://169.254.169.254/latest", false)).toMatch(/link-local/);
    expect(await refusedTarget("https://93.184.216.34/hook", false)).toBeNull();
    expect(await refusedTarget("http://127.0.0.1:9999/hook", true)).toBeNull();
    expect(await refusedTarget("ftp://example.com/", true)).toBe("url must use https");
    expect(await refusedTarget("https://user:pw@example.com/", true)).toMatch(/credentials/);
  });
});
