import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadCustomTools } from "../../src/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Attack (a real pattern, not malice): a factory returns `undefined` or `null` when it is not
// configured (no API key). That was `E_INVALID_TOOL Entry 0 returned by the factory … is not a
// tool: it is undefined`, an error that sent users looking for a broken tool. Fixed: the
// module loads with no tools and one W_NO_TOOLS warning that says so and what to check.
describe("a factory that returns nothing when unconfigured", () => {
  afterEach(() => vi.unstubAllEnvs());

  it.each([
    ["xcsh/api/unconfigured-api-key.ts", "undefined", "TOOLDOCK_DIALECT_WEATHER_KEY"],
    ["oh-my-pi/api/unconfigured-null.ts", "null", "TOOLDOCK_DIALECT_TRACKER_TOKEN"],
  ])("%s is a W_NO_TOOLS warning, not Entry 0 is %s", async (path, returned, variable) => {
    vi.stubEnv(variable, "");
    const result = await loadCustomTools({
      paths: [join(fixturesDir, "dialects", path)],
      cwd: fixturesDir,
      cacheDir: testCacheDir("unconfigured-factory"),
    });
    expect(result.diagnostics.map(({ code, severity }) => ({ code, severity }))).toEqual([
      { code: "W_NO_TOOLS", severity: "warning" },
    ]);
    expect(result.diagnostics[0]?.message).toContain(`returned no tools (${returned})`);
  });
});
