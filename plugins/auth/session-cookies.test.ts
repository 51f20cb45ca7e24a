import { describe, expect, it } from "vitest";
import { cookieOptions } from "./session-cookies.ts";

describe("cookieOptions", () => {
  it("keeps the cookies from scripts and cross-site posts, on every path", () => {
    expect(cookieOptions("http://localhost:3000/api/v2/auth/sign-in", undefined)).toEqual({
      path: "/",
      httpOnly: true,
      sameSite: "Lax",
      secure: false,
    });
  });

  it("marks them Secure when the request came over HTTPS, directly or as a proxy says", () => {
    expect(cookieOptions("https://platform.example/api/v2/auth/sign-in", undefined).secure).toBe(true);
    expect(cookieOptions("http://10.0.0.5:3000/api/v2/auth/sign-in", "https").secure).toBe(true);
    expect(cookieOptions("http://10.0.0.5:3000/api/v2/auth/sign-in", "http").secure).toBe(false);
  });

  it("gives an expiry only when one is asked for (a cleared cookie has none)", () => {
    const expires = new Date("2026-01-02T03:04:05Z");
    expect(cookieOptions("https://platform.example/", undefined, expires).expires).toBe(expires);
    expect(cookieOptions("https://platform.example/", undefined)).not.toHaveProperty("expires");
  });
});
