import { describe, expect, it } from "vitest";
import { EndpointFiltersSchema, matchesFilters, passesFilters, resourceOf } from "./filters.ts";

const TOKEN_A = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const TOKEN_B = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const transfer = (tokenAddress: string, chainId = 31337) => ({
  chainId,
  payload: { tokenAddress, chainId, amount: "1" },
  related: { idxr_token: tokenAddress },
});

describe("an endpoint's resource filters", () => {
  it("passes only the events of the listed tokens (a transfer's tokenAddress, an issuance's assetAddress)", () => {
    const filters = EndpointFiltersSchema.parse({ tokenAddress: [TOKEN_A.toLowerCase()] });
    expect(filters.tokenAddress).toEqual([TOKEN_A]); // stored checksummed
    expect(matchesFilters(filters, resourceOf(transfer(TOKEN_A)))).toBe(true);
    expect(matchesFilters(filters, resourceOf(transfer(TOKEN_B)))).toBe(false);
    const issuance = { chainId: 31337, payload: { assetAddress: TOKEN_A }, related: {} };
    expect(matchesFilters(filters, resourceOf(issuance))).toBe(true);
  });

  it("refuses an event that names no token to a token filter, and passes everything without filters", () => {
    const roleRevoked = { chainId: 31337, payload: { systemAddress: TOKEN_B }, related: {} };
    expect(matchesFilters({ tokenAddress: [TOKEN_A] }, resourceOf(roleRevoked))).toBe(false);
    expect(matchesFilters({}, resourceOf(roleRevoked))).toBe(true);
    expect(matchesFilters({ systemAddress: [TOKEN_B] }, resourceOf(roleRevoked))).toBe(true);
  });

  it("needs every key given to match (token and chain)", () => {
    const filters = { tokenAddress: [TOKEN_A], chainId: [1] };
    expect(matchesFilters(filters, resourceOf(transfer(TOKEN_A, 1)))).toBe(true);
    expect(matchesFilters(filters, resourceOf(transfer(TOKEN_A, 31337)))).toBe(false);
    // An emitted event has no chain column: its payload's chainId counts.
    expect(matchesFilters({ chainId: [1] }, resourceOf({ ...transfer(TOKEN_A, 1), chainId: null }))).toBe(true);
  });

  it("reads an outbox row as recorded (JSON text)", () => {
    const row = (token: string) => ({
      filters: { tokenAddress: [TOKEN_A] },
      chainId: 31337,
      payloadJson: JSON.stringify({ tokenAddress: token }),
      relatedJson: "{}",
    });
    expect(passesFilters(row(TOKEN_A))).toBe(true);
    expect(passesFilters(row(TOKEN_B))).toBe(false);
  });

  it("refuses unknown keys, empty lists and malformed addresses", () => {
    expect(EndpointFiltersSchema.safeParse({ token: [TOKEN_A] }).success).toBe(false);
    expect(EndpointFiltersSchema.safeParse({ tokenAddress: [] }).success).toBe(false);
    expect(EndpointFiltersSchema.safeParse({ tokenAddress: ["0x12"] }).success).toBe(false);
    expect(EndpointFiltersSchema.safeParse({ chainId: [0] }).success).toBe(false);
  });
});
