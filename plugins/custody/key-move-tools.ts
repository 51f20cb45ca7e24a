// What the move's later steps (claim-reissue.ts, wallet-signers.ts) use of the move in progress (key-move-task.ts
// binds them to one run): its keys, its record, and its writes, each under its own Idempotency-Key.
import type { Address, Hex } from "viem";
import type { KeyPair } from "../../host/custody/custody.ts";
import type { WalletSelection } from "../../host/db/platform-types.ts";
import type { PluginContext } from "../../host/plugin.ts";
import type { HeldPower } from "./key-move-powers.ts";
import type { MigrationDetail } from "./tables.ts";

/** One write of the move; `key` names it in the move's Idempotency-Key (move-write-attempts.ts). */
export interface MoveWrite {
  chainId: number;
  kind: string;
  from: Address;
  to: Address;
  data: Hex;
  key: string;
  description: string;
  /** A smart wallet's own operation (`from` is the wallet): sent as its user operation, as X-Executor: smart-wallet. */
  executor?: "smart-wallet";
  walletSelection?: WalletSelection;
}

export interface MoveTools {
  ctx: PluginContext<"custody">;
  organizationId: string;
  /** Each old key and its successor in the HSM. */
  keys: KeyPair[];
  /** The move's record, saved after the step. */
  detail: MigrationDetail;
  /** Queues the write, or finds the one queued under its key by an earlier run; its request id. */
  submit(write: MoveWrite): Promise<string>;
  /** Waits for the step's writes (recorded under the step); throws unless each completed. */
  completeAll(ids: string[]): Promise<void>;
  /** The powers besides roles `account` holds now on the organisation's chains (the index caught up first). */
  powers(account: Address): Promise<HeldPower[]>;
  /** The write taking an identity key from the old key (removeKey by a manager of the identity), if one may. */
  revoke(pair: KeyPair, power: HeldPower): Promise<string | undefined>;
  /** The chains of the organisation's systems, the index caught up with each. */
  indexedChains(): Promise<number[]>;
}
