// Which of an EntryPoint's pending operations a bundling run may plan, by ERC-7562's mempool rules that change while
// operations wait: a throttled paymaster's or factory's operations live for more than THROTTLED_ENTITY_LIVE_BLOCKS
// leave the mempool (SREP-030; failed, as a banned entity's are), and a sender whose operation used storage of
// another live operation's sender waits (STO-041). Costs nothing more while no pending operation names a throttled
// entity (a block number then) or recorded foreign storage (a query then).
import type { ServedChain } from "../../host/chain/served-chains.ts";
import { dropOutlivedOf, type ReputationScope, throttledEntities } from "./reputation.ts";
import { withoutSenderStorage } from "./sender-storage-rule.ts";
import type { BundlerDb, UserOperationRow } from "./tables.ts";

export async function bundleCandidates<Row extends UserOperationRow>(
  db: BundlerDb,
  on: ServedChain,
  scope: ReputationScope,
  pending: Row[],
): Promise<{ pending: Row[]; throttled: Set<string> }> {
  const throttled = await throttledEntities(
    db,
    scope,
    pending.flatMap((row) => [row.paymaster, row.factory].filter((entity): entity is string => entity !== null)),
    new Date(),
  );
  let live = pending;
  if (throttled.size > 0) {
    const head = await on.client.getBlockNumber({ cacheTime: 0 }); // the head now, not a poll's
    const dropped = new Set<string>();
    for (const entity of throttled) for (const hash of await dropOutlivedOf(db, scope, entity, head)) dropped.add(hash);
    live = pending.filter((row) => !dropped.has(row.userOpHash));
  }
  return { pending: await withoutSenderStorage(db, scope, live), throttled };
}
