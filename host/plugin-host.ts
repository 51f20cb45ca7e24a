// Composes the plugins the host is given into one set of parts: every name a plugin declares (task, cron entry,
// migration, permission, error code and id, revert rule, webhook event type, mutation kind, public path, executor
// mode, provided capability) is checked
// for collisions, so two plugins that claim the same name stop the platform at start with a message naming both.
// Error codes and ids, permissions and revert rules are also checked against the host core's own. Every capability
// a plugin requires must be the host's or another loaded plugin's: the platform refuses to start otherwise.
import { CORE_PERMISSIONS, registerPermissions } from "./auth/permissions.ts";
import { HOST_CAPABILITIES, HOST_KEY_SETTINGS } from "./capabilities.ts";
import { CORE_ERRORS, registerErrors } from "./errors/registry.ts";
import type { RequestExecutor } from "./mutations/executors.ts";
import { CORE_REVERT_RULES, registerRevertRules } from "./mutations/revert-errors.ts";
import type { HostContext, Plugin, PluginContext, PluginMigration, RequestObserver, TimerEntry } from "./plugin.ts";
import type { DefinedTask } from "./worker/define-task.ts";

/** The owner of the host core's names in conflict messages (never a plugin id: those are kebab-case). */
export const HOST_CORE = "host core";

export class PluginConflictError extends Error {
  constructor(what: string, name: string, first: string, second: string) {
    super(
      first === HOST_CORE
        ? `Plugin "${second}" declares the ${what} "${name}", which the host core already declares; rename it.`
        : `Plugins "${first}" and "${second}" both declare the ${what} "${name}"; rename one of them.`,
    );
    this.name = "PluginConflictError";
  }
}

export class PluginRequirementError extends Error {
  constructor(plugin: string, capability: string) {
    super(
      `Plugin "${plugin}" requires the capability "${capability}", which no loaded plugin provides; ` +
        `load the plugin that provides "${capability}" or remove "${plugin}".`,
    );
    this.name = "PluginRequirementError";
  }
}

/** A name → (value, owning plugin) map that refuses a second owner; `core` names are owned by the host core. */
function claims<V>(what: string, core: Record<string, V> = {}) {
  const owners = new Map<string, { owner: string; value: V }>(
    Object.entries(core).map(([name, value]) => [name, { owner: HOST_CORE, value }]),
  );
  return {
    add(name: string, owner: string, value: V) {
      const existing = owners.get(name);
      if (existing && existing.owner !== owner) throw new PluginConflictError(what, name, existing.owner, owner);
      if (existing) throw new PluginConflictError(what, name, owner, owner);
      owners.set(name, { owner, value });
    },
    /** The plugins' entries (the core's are the host's own). */
    entries(): [string, V][] {
      return [...owners].filter(([, { owner }]) => owner !== HOST_CORE).map(([name, { value }]) => [name, value]);
    },
    owner: (name: string) => owners.get(name)?.owner,
  };
}

/** One plugin's migrations, run in order by host/db/migrations.ts after the core schema. */
export interface PluginMigrations {
  pluginId: string;
  migrations: PluginMigration[];
}

export interface ComposedPlugins {
  /** In the order given (routes are mounted, tasks and migrations listed in it). */
  plugins: Plugin[];
  /** Each plugin after those that provide what it requires: the order capabilities are built in. */
  dependencyOrder: Plugin[];
  /** graphile-worker's crontab text: the plugins' schedules, one line each. */
  crontab: string[];
  /** Every plugin's tasks under `<plugin id>:<name>`. */
  tasks(ctx: HostContext): Record<string, DefinedTask>;
  timers(ctx: HostContext): TimerEntry[];
  /** Every plugin's request observers (host/http/record-requests.ts calls them after each /api request). */
  requestObservers(ctx: HostContext): RequestObserver[];
  /**
   * Puts the plugins' provided capabilities on the host's context (in dependency order: a provider's context sees
   * what it requires), then fills the executor modes. Once per process, before routes and tasks are built.
   */
  provideServices(ctx: HostContext): void;
  migrations: PluginMigrations[];
  permissions: Map<string, NonNullable<Plugin["permissions"]>[string]>;
  errors: Map<string, NonNullable<Plugin["errors"]>[string]>;
  revertErrors: Map<string, NonNullable<Plugin["revertErrors"]>[string]>;
  webhookEvents: Map<string, NonNullable<Plugin["webhookEvents"]>[string]>;
  mutationKinds: Map<string, NonNullable<Plugin["mutationKinds"]>[string]>;
  publicPaths: Set<string>;
}

export function composePlugins(plugins: Plugin[]): ComposedPlugins {
  const ids = claims<Plugin>("plugin id");
  const permissions = claims<NonNullable<Plugin["permissions"]>[string]>("permission", CORE_PERMISSIONS);
  const errors = claims<NonNullable<Plugin["errors"]>[string]>("error code", CORE_ERRORS);
  const errorIds = claims<string>(
    "error id",
    Object.fromEntries(Object.entries(CORE_ERRORS).map(([code, definition]) => [definition.id, code])),
  );
  const reverts = claims<NonNullable<Plugin["revertErrors"]>[string]>("contract revert", CORE_REVERT_RULES);
  const events = claims<NonNullable<Plugin["webhookEvents"]>[string]>("webhook event type");
  const kinds = claims<NonNullable<Plugin["mutationKinds"]>[string]>("mutation kind");
  const paths = claims<true>("public path");
  const executors = claims<Plugin>("executor");
  const capabilities = claims<Plugin | null>(
    "capability",
    Object.fromEntries(HOST_CAPABILITIES.map((name) => [name, null])),
  );
  const crontab: string[] = [];
  for (const plugin of plugins) {
    ids.add(plugin.id, plugin.id, plugin);
    for (const [name, roles] of Object.entries(plugin.permissions ?? {})) permissions.add(name, plugin.id, roles);
    for (const [code, definition] of Object.entries(plugin.errors ?? {})) {
      errors.add(code, plugin.id, definition);
      errorIds.add(definition.id, plugin.id, code);
    }
    for (const [name, rule] of Object.entries(plugin.revertErrors ?? {})) reverts.add(name, plugin.id, rule);
    for (const [type, event] of Object.entries(plugin.webhookEvents ?? {})) events.add(type, plugin.id, event);
    for (const [kind, definition] of Object.entries(plugin.mutationKinds ?? {})) kinds.add(kind, plugin.id, definition);
    for (const path of plugin.publicPaths ?? []) paths.add(path, plugin.id, true);
    for (const name of Object.keys(plugin.executors ?? {})) executors.add(name, plugin.id, plugin);
    for (const name of Object.keys(plugin.provides ?? {})) capabilities.add(name, plugin.id, plugin);
    for (const entry of plugin.crontab ?? []) {
      const task = `${plugin.id}:${entry.task}`;
      const payload = entry.payload ? ` ${JSON.stringify(entry.payload)}` : "";
      const fill = entry.fill ? `&fill=${entry.fill}` : "";
      // A job key per entry: a run still pending when the next period comes is not doubled.
      crontab.push(`${entry.schedule} ${task} ?jobKey=cron:${task}&jobKeyMode=preserve_run_at${fill}${payload}`);
    }
  }
  for (const [name, rule] of reverts.entries()) {
    if (!errors.owner(rule.code)) {
      throw new Error(
        `Plugin "${reverts.owner(name)}" maps the revert ${name} to "${rule.code}", which no one declares`,
      );
    }
  }
  const dependencyOrder = inDependencyOrder(plugins, (name) => capabilities.owner(name));
  return {
    plugins,
    dependencyOrder,
    crontab,
    tasks(ctx) {
      const tasks: Record<string, DefinedTask> = {};
      for (const plugin of plugins) {
        for (const [name, task] of Object.entries(plugin.tasks?.(pluginContext(ctx, plugin)) ?? {})) {
          tasks[`${plugin.id}:${name}`] = task;
        }
      }
      return tasks;
    },
    timers(ctx) {
      return plugins.flatMap((plugin) => plugin.timers?.(pluginContext(ctx, plugin)) ?? []);
    },
    requestObservers(ctx) {
      return plugins.flatMap((plugin) => plugin.requestObservers?.(pluginContext(ctx, plugin)) ?? []);
    },
    provideServices(ctx) {
      const provided = new Map<string, unknown>();
      (ctx as WithProvided)[PROVIDED] = provided;
      for (const plugin of dependencyOrder) {
        for (const [name, build] of Object.entries(plugin.provides ?? {})) {
          provided.set(name, (build as (ctx: PluginContext) => unknown)(pluginContext(ctx, plugin)));
        }
      }
      const modes = ctx.executors as Map<string, RequestExecutor>;
      for (const [name, plugin] of executors.entries()) {
        modes.set(name, plugin.executors![name]!(pluginContext(ctx, plugin)));
      }
    },
    migrations: plugins
      .filter((plugin) => plugin.migrations?.length)
      .map((plugin) => ({ pluginId: plugin.id, migrations: plugin.migrations ?? [] })),
    permissions: new Map(permissions.entries()),
    errors: new Map(errors.entries()),
    revertErrors: new Map(reverts.entries()),
    webhookEvents: new Map(events.entries()),
    mutationKinds: new Map(kinds.entries()),
    publicPaths: new Set(paths.entries().map(([path]) => path)),
  };
}

/**
 * Makes the composed plugins' error codes, permissions and revert rules known to the host's registries
 * (`ApiError`, the permission checks, the revert map). Once per process, where the platform is built.
 */
export function registerPlugins(composed: ComposedPlugins): void {
  registerErrors(composed.errors);
  registerPermissions(composed.permissions);
  registerRevertRules(composed.revertErrors);
}

/**
 * The plugins, each after the providers of what it requires (otherwise in the order given); a requirement no one
 * meets, or a cycle, refuses the composition with a message naming the plugin.
 */
function inDependencyOrder(plugins: Plugin[], providerOf: (name: string) => string | undefined): Plugin[] {
  const byId = new Map(plugins.map((plugin) => [plugin.id, plugin]));
  const ordered: Plugin[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (plugin: Plugin, path: string[]) => {
    if (state.get(plugin.id) === "done") return;
    if (state.get(plugin.id) === "visiting") {
      throw new Error(`Plugins require each other's capabilities in a cycle: ${[...path, plugin.id].join(" → ")}`);
    }
    state.set(plugin.id, "visiting");
    for (const name of plugin.requires ?? []) {
      const provider = providerOf(name);
      if (!provider) throw new PluginRequirementError(plugin.id, name);
      if (provider !== HOST_CORE && provider !== plugin.id) visit(byId.get(provider)!, [...path, plugin.id]);
    }
    state.set(plugin.id, "done");
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}

/** Settings a plugin's config leaves out: the host's keys, and every plugin's own settings (it gets its own only). */
const HIDDEN_FROM_PLUGINS = [...HOST_KEY_SETTINGS, "pluginSettings"] as const;

/** Where provideServices keeps the plugins' capabilities on the host's context (a symbol: never spread into a plugin's). */
const PROVIDED = Symbol("provided capabilities");
type WithProvided = HostContext & { [PROVIDED]?: Map<string, unknown> };

/**
 * The context a plugin's parts receive: the host's shared context, the plugin's own logger, and of the capabilities
 * (custody, the secrets, the funder key, other plugins') only those it requires.
 */
export function pluginContext(ctx: HostContext, plugin: Plugin): PluginContext<never, Record<string, unknown>> {
  const settings = ctx.config.pluginSettings.get(plugin.id);
  if (plugin.settings && settings === undefined)
    throw new Error(`Plugin "${plugin.id}" has settings, but the configuration was loaded without them (loadConfig)`);
  const { custody, secrets, deployment, ...shared } = ctx;
  const capabilities = new Map<string, unknown>([
    ["custody", custody],
    ["secrets", secrets],
    ["deployment", deployment],
    ...((ctx as WithProvided)[PROVIDED] ?? []),
  ]);
  const required = (plugin.requires ?? []).map((name) => [name, capabilities.get(name)]);
  const config = Object.fromEntries(
    Object.entries(ctx.config).filter(([name]) => !(HIDDEN_FROM_PLUGINS as readonly string[]).includes(name)),
  ) as PluginContext["config"];
  return {
    ...shared,
    config,
    ...Object.fromEntries(required),
    settings: (settings ?? {}) as Record<string, unknown>,
    logger: ctx.logger.child({ plugin: plugin.id }),
  } as PluginContext<never, Record<string, unknown>>;
}
