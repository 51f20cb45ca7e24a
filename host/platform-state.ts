// State a plugin keeps in memory between requests and runs (caches, coalesced wakes), owned by one platform: each
// of a plugin's parts gets a context of its own, but all of one platform's share its database handle, so the state
// is kept by that handle. Two platforms in one process (as the tests run them) never share it, and it goes with its
// platform.
import type { SharedContext } from "./plugin.ts";

/** `create` runs once per platform, given the context of the first part that asks; later calls get the same state. */
export function platformState<S, C extends Pick<SharedContext, "db"> = Pick<SharedContext, "db">>(
  create: (ctx: C) => S,
): (ctx: C) => S {
  const states = new WeakMap<object, S>();
  return (ctx) => {
    let state = states.get(ctx.db);
    if (state === undefined) {
      state = create(ctx);
      states.set(ctx.db, state);
    }
    return state;
  };
}
