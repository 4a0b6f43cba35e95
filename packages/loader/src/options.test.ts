import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ToolHost } from "./host-api/tool-host.js";
import { normalizeLoadOptions } from "./options.js";

const packageDir = join(import.meta.dirname, "..");

describe("normalizeLoadOptions", () => {
  it("applies the documented defaults", () => {
    const context = normalizeLoadOptions({ paths: ["tools"], cwd: packageDir }, {});
    expect(context).toMatchObject({
      cwd: packageDir,
      compiler: "esbuild",
      factoryTimeoutMs: 10_000,
      cacheDir: join(packageDir, "node_modules/.cache/tooldock"),
      session: undefined,
      sourceMaps: true,
    });
    expect([...context.reservedNames]).toEqual([]);
    expect(context.host.cwd).toBe(packageDir);
  });

  it("reads the environment when an option is not given, and prefers the option", () => {
    const env = {
      TOOLDOCK_COMPILER: "jiti",
      TOOLDOCK_CACHE_DIR: "cache",
      TOOLDOCK_FACTORY_TIMEOUT_MS: "250",
    };
    expect(normalizeLoadOptions({ paths: [], cwd: "/work" }, env)).toMatchObject({
      compiler: "jiti",
      cacheDir: "/work/cache",
      factoryTimeoutMs: 250,
    });
    expect(
      normalizeLoadOptions(
        { paths: [], cwd: "/work", compiler: "esbuild", cacheDir: "/c", factoryTimeoutMs: 5 },
        env,
      ),
    ).toMatchObject({ compiler: "esbuild", cacheDir: "/c", factoryTimeoutMs: 5 });
  });

  it("falls back to the per-user cache folder without node_modules, and to the default for a bad env value", () => {
    const context = normalizeLoadOptions(
      { paths: [], cwd: "/tooldock-no-such-dir" },
      { TOOLDOCK_FACTORY_TIMEOUT_MS: "soon", XDG_CACHE_HOME: "/home/ada/.cache" },
    );
    expect(context.cacheDir).toBe("/home/ada/.cache/tooldock");
    expect(context.factoryTimeoutMs).toBe(10_000);
    const noXdg = normalizeLoadOptions({ paths: [], cwd: "/tooldock-no-such-dir" }, { HOME: "/home/ada" });
    expect(noXdg.cacheDir).toBe("/home/ada/.cache/tooldock");
    const relativeXdg = normalizeLoadOptions({ paths: [], cwd: "/x" }, { XDG_CACHE_HOME: "cache", HOME: "" });
    expect(relativeXdg.cacheDir).toBe(join(homedir(), ".cache", "tooldock"));
  });

  it("turns source maps off with TOOLDOCK_SOURCE_MAPS=0 or false, and prefers the option", () => {
    const sourceMaps = (env: NodeJS.ProcessEnv, option?: boolean) =>
      normalizeLoadOptions({ paths: [], cwd: "/work", sourceMaps: option }, env).sourceMaps;
    expect(sourceMaps({ TOOLDOCK_SOURCE_MAPS: "0" })).toBe(false);
    expect(sourceMaps({ TOOLDOCK_SOURCE_MAPS: "false" })).toBe(false);
    expect(sourceMaps({ TOOLDOCK_SOURCE_MAPS: " FALSE " })).toBe(false);
    expect(sourceMaps({ TOOLDOCK_SOURCE_MAPS: "1" })).toBe(true);
    expect(sourceMaps({ TOOLDOCK_SOURCE_MAPS: "" })).toBe(true);
    expect(sourceMaps({ TOOLDOCK_SOURCE_MAPS: "0" }, true)).toBe(true);
    expect(sourceMaps({}, false)).toBe(false);
  });

  // A typo in an environment variable was ignored in silence: TOOLDOCK_COMPILER=JITI loaded
  // with esbuild, TOOLDOCK_FACTORY_TIMEOUT_MS=30s kept 10 s, TOOLDOCK_SOURCE_MAPS=no left them on.
  it("env-value-ignored-in-silence: warns of each value it cannot use, naming the variable and what it used", () => {
    const context = normalizeLoadOptions(
      { paths: [], cwd: "/work" },
      { TOOLDOCK_COMPILER: "swc", TOOLDOCK_FACTORY_TIMEOUT_MS: "30s", TOOLDOCK_SOURCE_MAPS: "no" },
    );
    expect(context).toMatchObject({ compiler: "esbuild", factoryTimeoutMs: 10_000, sourceMaps: true });
    expect(context.warnings.map((warning) => [warning.code, warning.severity, warning.message])).toEqual([
      [
        "W_ENV_VALUE",
        "warning",
        'TOOLDOCK_COMPILER="swc" is not "esbuild" or "jiti"; the load used "esbuild".',
      ],
      [
        "W_ENV_VALUE",
        "warning",
        'TOOLDOCK_FACTORY_TIMEOUT_MS="30s" is not a number of milliseconds above 0; the load used 10000.',
      ],
      ["W_ENV_VALUE", "warning", 'TOOLDOCK_SOURCE_MAPS="no" is not 0, false, 1 or true; the load used true.'],
    ]);
    expect(context.warnings[0]?.hint).toBe('Set TOOLDOCK_COMPILER to "esbuild" or "jiti", or unset it.');
    // Any case of a known value is that value; an option given means the variable is not read.
    expect(normalizeLoadOptions({ paths: [], cwd: "/w" }, { TOOLDOCK_COMPILER: " JITI " })).toMatchObject({
      compiler: "jiti",
      warnings: [],
    });
    const given = { paths: [], cwd: "/w", compiler: "jiti", factoryTimeoutMs: 5, sourceMaps: false } as const;
    expect(
      normalizeLoadOptions(given, { TOOLDOCK_COMPILER: "swc", TOOLDOCK_FACTORY_TIMEOUT_MS: "x" }).warnings,
    ).toEqual([]);
  });

  it("takes cwd from the host when only a host is given", () => {
    const host = new ToolHost({ cwd: "/srv/agent" });
    expect(normalizeLoadOptions({ paths: [], host }, {}).cwd).toBe("/srv/agent");
  });
});
