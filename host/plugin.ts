// A plugin is a value the host mounts: routes, worker tasks and the chain-write kinds it owns.
import type { Task } from "graphile-worker";
import type { Address, Hex } from "viem";
import type { ChainService } from "./chain/chain-service.ts";
import type { Config } from "./config.ts";
import type { Custody } from "./custody/custody.ts";
import type { Databases } from "./db/database.ts";
import type { App } from "./http/env.ts";
import type { IndexStatus } from "./index-status.ts";
import type { Logger } from "./logger.ts";
import type { MutationKind, MutationService } from "./mutations/service.ts";

export interface PluginContext {
  config: Config;
  db: Databases;
  chain: ChainService;
  index: IndexStatus;
  custody: Custody;
  mutations: MutationService;
  logger: Logger;
  /** The platform's root contract on the served chain, and the key that funds signers (embedded/test chains). */
  deployment: { systemFactory: Address; funderKey?: Hex };
  /** The master key that seals secrets at rest (custody seeds, second-factor secrets). */
  secrets: { masterKey: Buffer };
}

export interface Plugin {
  /** kebab-case; prefixes task names and logs. */
  id: string;
  routes?: (app: App, ctx: PluginContext) => void;
  /** Exact paths that need no credential (e.g. sign-in); every other /api path is authenticated. */
  publicPaths?: string[];
  /** graphile-worker tasks, registered as `<plugin id>:<name>`. */
  tasks?: (ctx: PluginContext) => Record<string, Task>;
  /** Chain-write kinds (e.g. `token.create`): how to read a result from the receipt, what to record on completion. */
  mutationKinds?: Record<string, MutationKind>;
}

export function definePlugin(plugin: Plugin): Plugin {
  if (!/^[a-z][a-z0-9-]*$/.test(plugin.id)) throw new Error(`Plugin id "${plugin.id}" must be kebab-case`);
  return plugin;
}
