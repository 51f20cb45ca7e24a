import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ivOf } from "../../host/crypto/sealed-bytes.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { directoryStorage } from "./document-storage.ts";
import { documentVault } from "./document-vault.ts";

const dir = mkdtempSync(join(tmpdir(), "kyc-vault-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const masterKey = randomBytes(32);
const vault = documentVault(directoryStorage(dir), masterKey);
const fileOf = (id: string) => join(dir, `${id}.sealed`);
const code = (error: unknown) => (error instanceof ApiError ? error.code : String(error));

describe("the KYC document vault", () => {
  it("round-trips a document, and the file on disk is neither the plaintext nor contains it", async () => {
    const plaintext = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(64 * 1024)]);
    await vault.put("doc-a", plaintext);
    expect(await vault.get("doc-a")).toEqual(plaintext);
    const onDisk = readFileSync(fileOf("doc-a"));
    expect(onDisk.includes(plaintext.subarray(0, 32))).toBe(false);
    expect(onDisk.includes(Buffer.from("%PDF"))).toBe(false);
  });

  it("seals the same bytes with a fresh IV each time", async () => {
    const plaintext = Buffer.from("the same passport");
    await vault.put("doc-b", plaintext);
    const first = readFileSync(fileOf("doc-b"));
    await vault.put("doc-b", plaintext);
    const second = readFileSync(fileOf("doc-b"));
    expect(ivOf(first).equals(ivOf(second))).toBe(false);
    expect(first.equals(second)).toBe(false);
  });

  it("refuses a tampered file, a file moved under another id, another master key and a missing file", async () => {
    await vault.put("doc-c", Buffer.from("proof of address"));
    const sealed = readFileSync(fileOf("doc-c"));
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 0x01;
    writeFileSync(fileOf("doc-c"), tampered);
    expect(code(await vault.get("doc-c").catch((e) => e))).toBe("KYC_DOCUMENT_UNREADABLE");

    writeFileSync(fileOf("doc-d"), sealed); // doc-c's file under doc-d's id
    expect(code(await vault.get("doc-d").catch((e) => e))).toBe("KYC_DOCUMENT_UNREADABLE");

    await vault.put("doc-e", Buffer.from("utility bill"));
    const otherKey = documentVault(directoryStorage(dir), randomBytes(32));
    expect(code(await otherKey.get("doc-e").catch((e) => e))).toBe("KYC_DOCUMENT_UNREADABLE");

    await vault.remove("doc-e");
    expect(code(await vault.get("doc-e").catch((e) => e))).toBe("KYC_DOCUMENT_UNREADABLE");
    expect(readdirSync(dir)).not.toContain("doc-e.sealed");
  });
});
