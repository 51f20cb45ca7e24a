// The built-in plugin list composes (every requirement met), and without the bundler the platform refuses to start
// naming smart-wallets' requirement (what composePlugins does when scripts/platform-context.ts starts a process).
import { describe, expect, it } from "vitest";
import { composePlugins } from "../host/plugin-host.ts";
import { plugins } from "./index.ts";

describe("the built-in plugins' requirements", () => {
  it("are all met by the plugin list", () => {
    expect(() => composePlugins(plugins)).not.toThrow();
  });

  it("refuse the list without the bundler, naming smart-wallets and the user-operation pool", () => {
    const withoutBundler = plugins.filter((plugin) => plugin.id !== "bundler");
    expect(() => composePlugins(withoutBundler)).toThrow(
      'Plugin "smart-wallets" requires the capability "userOperationPool", which no loaded plugin provides',
    );
  });
});
