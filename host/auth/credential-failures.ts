// Failed credentials (unknown, revoked or expired API keys; invalid session cookies) per source address: after the
// policy's free failures within its window, 429 auth.credential.THROTTLED with Retry-After. Counted in the shared
// table only when a credential fails, so a valid key costs nothing and always passes; the process remembers the locks
// it has seen and answers a failure from a locked address without counting it again. Another process learns of the
// lock when it counts its own first failure from that address.
import type { PlatformDb } from "../db/database.ts";
import type { ApiError } from "../errors/api-error.ts";
import { countFailure, type LockoutPolicy } from "./failure-counters.ts";
import { throttled } from "./throttled.ts";

const MAX_REMEMBERED = 10_000;

export interface CredentialFailures {
  /**
   * A credential from `address` failed with `error`: gives the error to answer. 429 while the address is locked out
   * (known to this process: answered without another count), else the failure is counted and 429 once it locks the
   * address out, else `error`. Only failures reach this: a valid credential always passes.
   */
  failed(address: string, error: ApiError): Promise<ApiError>;
}

export function createCredentialFailures(db: PlatformDb, policy: LockoutPolicy): CredentialFailures {
  const lockedUntil = new Map<string, number>();
  const refusal = (until: number, now: number) => throttled("auth.credential.THROTTLED", (until - now) / 1000);
  return {
    async failed(address, error) {
      const known = lockedUntil.get(address);
      if (known !== undefined && known > Date.now()) return refusal(known, Date.now());
      lockedUntil.delete(address);
      let result: Awaited<ReturnType<typeof countFailure>>;
      try {
        result = await countFailure(db, { scope: "credential:address", key: address, policy });
      } catch {
        return error; // the counters are out of reach: the failure itself still answers
      }
      if (result.lockedSeconds <= 0) return error;
      if (lockedUntil.size >= MAX_REMEMBERED) lockedUntil.clear();
      const now = Date.now();
      const until = now + result.lockedSeconds * 1000;
      lockedUntil.set(address, until);
      return refusal(until, now);
    },
  };
}
