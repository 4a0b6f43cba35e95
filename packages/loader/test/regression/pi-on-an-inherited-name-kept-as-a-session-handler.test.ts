import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../src/testing/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Found by an end-of-session review: `pi.on(event)` told pi's session events by `event in
// SESSION_EVENTS`, which also matches the names an object inherits. `pi.on("toString", …)`
// (or "constructor", "hasOwnProperty") was kept as a session handler that never runs, and the
// author was not told that Tooldock does not have the event (no W_EXTENSION_FEATURE).
describe("pi.on with a name an object inherits", () => {
  let harness: ToolHarness | undefined;
  afterEach(async () => {
    await harness?.dispose();
    harness = undefined;
  });

  it("is an agent event Tooldock does not have: one W_EXTENSION_FEATURE each; the tool loads", async () => {
    harness = await createToolHarness({
      paths: join(fixturesDir, "dialects", "pi-extensions", "inherited-event-names.ts"),
      cwd: fixturesDir,
      cacheDir: testCacheDir("regression-pi-on-inherited-name"),
      isolation: "none",
    });
    expect(
      harness.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message.match(/uses (\S+)/)?.[1]]),
    ).toEqual([
      ["W_EXTENSION_FEATURE", 'pi.on("toString")'],
      ["W_EXTENSION_FEATURE", 'pi.on("constructor")'],
      ["W_EXTENSION_FEATURE", 'pi.on("hasOwnProperty")'],
    ]);
    expect(harness.diagnostics[0]?.message).toContain("agent events");
    expect(harness.tools.map(({ tool }) => tool.name)).toEqual(["ext_plain"]);
  });
});
