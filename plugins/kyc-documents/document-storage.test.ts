import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { directoryStorage } from "./document-storage.ts";

const root = mkdtempSync(join(tmpdir(), "kyc-storage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the directory storage of KYC documents", () => {
  it("writes, reads back and removes, creating its private directory on the first write", async () => {
    const dir = join(root, "nested", "kyc-documents");
    const storage = directoryStorage(dir);
    const bytes = Buffer.from("sealed bytes");
    await storage.write("0190f7a4-5b1e-7c3d-9a2b-1c2d3e4f5a6b", bytes);
    expect(await storage.read("0190f7a4-5b1e-7c3d-9a2b-1c2d3e4f5a6b")).toEqual(bytes);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir)).toEqual(["0190f7a4-5b1e-7c3d-9a2b-1c2d3e4f5a6b.sealed"]); // no partial file left
    expect(statSync(join(dir, readdirSync(dir)[0] as string)).mode & 0o777).toBe(0o600);
    await storage.remove("0190f7a4-5b1e-7c3d-9a2b-1c2d3e4f5a6b");
    expect(await storage.read("0190f7a4-5b1e-7c3d-9a2b-1c2d3e4f5a6b")).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("answers nothing for a name never written, and removing it is no error", async () => {
    const storage = directoryStorage(join(root, "empty"));
    expect(await storage.read("missing")).toBeUndefined();
    await expect(storage.remove("missing")).resolves.toBeUndefined();
  });

  it("replaces a file whole when a name is written again", async () => {
    const storage = directoryStorage(join(root, "again"));
    await storage.write("doc", Buffer.from("first, longer content"));
    await storage.write("doc", Buffer.from("second"));
    expect((await storage.read("doc"))?.toString()).toBe("second");
  });

  it("refuses a name that could leave the directory", async () => {
    const storage = directoryStorage(join(root, "names"));
    for (const name of ["../escape", "a/b", "", ".", "x".repeat(65)])
      await expect(storage.write(name, Buffer.from("x"))).rejects.toThrow("Not a storage name");
  });
});
