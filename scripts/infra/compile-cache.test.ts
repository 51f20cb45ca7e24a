import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { COMPILE_CACHE_DIR, compileCacheEnv } from "./compile-cache.ts";

describe("the compile cache of the platform's Node processes", () => {
  it("lives in node_modules/.cache unless the environment chooses a folder or turns it off", () => {
    expect(compileCacheEnv({})).toEqual({ NODE_COMPILE_CACHE: COMPILE_CACHE_DIR });
    expect(COMPILE_CACHE_DIR).toMatch(/\/node_modules\/\.cache\/node-compile$/);
    expect(compileCacheEnv({ NODE_COMPILE_CACHE: "/elsewhere" })).toEqual({});
    expect(compileCacheEnv({ NODE_DISABLE_COMPILE_CACHE: "1" })).toEqual({});
  });

  it.skipIf(Number(process.versions.node.split(".")[0]) < 22)("is used by a Node child given that environment", () => {
    const { NODE_DISABLE_COMPILE_CACHE: _, NODE_COMPILE_CACHE: __, ...env } = process.env;
    const directory = execFileSync(
      process.execPath,
      ["-e", "process.stdout.write(String(require('node:module').getCompileCacheDir()))"],
      { env: { ...env, ...compileCacheEnv(env) } },
    ).toString();
    expect(directory).toContain(COMPILE_CACHE_DIR);
  });
});
