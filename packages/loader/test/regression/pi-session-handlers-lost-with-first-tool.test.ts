import { join } from "node:path";
import type { UIContext } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { createToolHarness } from "../../src/testing/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Found by a bug hunt: a pi extension's session_start and session_shutdown handlers rode on
// the module's first entry, so when the accept stage refused that entry (an invalid name) the
// handlers were dropped without a word, and the tools that loaded ran without their setup.
// Fixed: every object entry carries them, and they run once per session event, with the
// first of the module's tools the session notifies.
describe.each(["none", "process"] as const)(
  "a pi extension whose first tool is refused (isolation %s)",
  (isolation) => {
    it("still runs its session handlers, once per event", async () => {
      const notified: string[] = [];
      const ui: UIContext = {
        select: async () => undefined,
        confirm: async () => false,
        input: async () => undefined,
        notify: (message) => void notified.push(message),
      };
      const harness = await createToolHarness({
        paths: join(fixturesDir, "dialects", "pi-extensions", "first-tool-rejected.ts"),
        cwd: fixturesDir,
        cacheDir: testCacheDir(`regression-pi-first-refused-${isolation}`),
        isolation,
        ui,
      });
      try {
        expect(harness.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["E_NAME_INVALID"]);
        expect(harness.tools.map(({ tool }) => tool.name)).toEqual(["ext_starts_a", "ext_starts_b"]);
        expect((await harness.call("ext_starts_b", {})).content).toEqual([
          { type: "text", text: "starts=1" },
        ]);
      } finally {
        await harness.dispose();
      }
      expect(notified).toEqual(["shutdown after 1 start(s)"]);
    });
  },
);
