import { describe, expect, it } from "vitest";
import type { TransactionRequestRow } from "../../host/db/platform-types.ts";
import { TERMINAL_STATES } from "../../host/mutations/service.ts";
import { TRANSACTION_STATUSES, TransactionRequestSchema } from "./schemas.ts";
import { toTransactionRequest } from "./serialize.ts";

const row: TransactionRequestRow = {
  id: "tx-1",
  organizationId: "org-1",
  kind: "token.mint",
  status: "COMPLETED",
  subStatus: null,
  chainId: 31337,
  fromAddress: "0x00000000000000000000000000000000000000a1",
  toAddress: "0x00000000000000000000000000000000000000b2",
  data: "0x",
  value: 0n,
  nonce: 7,
  rawTransaction: null,
  transactionHash: `0x${"ab".repeat(32)}`,
  replacedHashes: [`0x${"aa".repeat(32)}`],
  broadcastHashes: [`0x${"aa".repeat(32)}`, `0x${"ab".repeat(32)}`],
  feeBumps: 1,
  blockNumber: 12345678901234567890n,
  result: { tokenAddress: "0x00000000000000000000000000000000000000c3" },
  errorMessage: null,
  contractError: null,
  createdBy: "user-1",
  idempotencyKey: null,
  description: "Mint 10 ACME",
  attempts: 1,
  executor: "eoa",
  walletSelection: {},
  gasLimit: null,
  speed: "fast",
  wakeJob: null,
  authorizationList: null,
  resultContext: null,
  finalizedAt: null,
  reorgs: 0,
  createdAt: new Date("2026-01-02T03:04:05.000Z"),
  updatedAt: new Date("2026-01-02T03:04:06.000Z"),
};

describe("toTransactionRequest", () => {
  it("answers the API's TransactionRequest: block number as a decimal string, times in ISO", () => {
    const request = toTransactionRequest(row);
    expect(TransactionRequestSchema.strict().parse(request)).toEqual(request);
    expect(request).toMatchObject({
      transactionId: "tx-1",
      blockNumber: "12345678901234567890",
      // Every hash it was broadcast as, oldest first: the fee-bumped one, then the mined one.
      transactionHashes: [`0x${"aa".repeat(32)}`, `0x${"ab".repeat(32)}`],
      result: { tokenAddress: "0x00000000000000000000000000000000000000c3" },
      speed: "fast", // its X-Transaction-Speed
      createdAt: "2026-01-02T03:04:05.000Z",
      updatedAt: "2026-01-02T03:04:06.000Z",
    });
  });

  it("keeps what the API does not show out (the signed bytes, nonce, idempotency key)", () => {
    const request = toTransactionRequest({ ...row, rawTransaction: "0xf86c", idempotencyKey: "k" });
    for (const hidden of ["rawTransaction", "nonce", "idempotencyKey", "data", "organizationId", "createdBy"]) {
      expect(request).not.toHaveProperty(hidden);
    }
  });

  it("shows contractError only when the failure mapped to a known error, and null for what is not there yet", () => {
    const queued = toTransactionRequest({
      ...row,
      status: "QUEUED",
      transactionHash: null,
      blockNumber: null,
      result: null,
    });
    expect(queued).toMatchObject({ transactionHash: null, blockNumber: null, result: null });
    expect(queued).not.toHaveProperty("contractError");
    const contractError = {
      id: "TokenPaused",
      args: {},
      why: "paused",
      message: "The token is paused",
      fix: "unpause",
    };
    const failed = toTransactionRequest({ ...row, status: "FAILED", contractError });
    // A failure carries the contract error's dalpCode, retryable and suggestedAction (for rows recorded without them too).
    expect(failed.contractError).toEqual({
      ...contractError,
      dalpCode: "TOKEN_PAUSED",
      retryable: true,
      suggestedAction: expect.stringContaining("unpause"),
    });
    expect(TransactionRequestSchema.parse(failed)).toEqual(failed);
  });
});

describe("TRANSACTION_STATUSES", () => {
  it("holds every terminal state the pipeline ends a request in", () => {
    for (const state of TERMINAL_STATES) expect(TRANSACTION_STATUSES).toContain(state);
  });
});
