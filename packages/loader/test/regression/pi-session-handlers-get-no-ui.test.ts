import { join } from "node:path";
import type { UIContext } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { createToolHarness } from "../../src/testing/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Found by a bug hunt: a pi extension's `session_start` and `session_shutdown` handlers got
// the session's raw context, without pi's `ui` and `hasUI`, so `ctx.ui.notify(…)` in a handler
// threw (a W_ON_SESSION_FAILED warning) and the handler's work was lost. Fixed: they get the
// same context as the extension's tools.
describe.each(["none", "process"] as const)(
  "a pi extension's session handlers (isolation %s)",
  (isolation) => {
    it("have pi's ui and hasUI on their context", async () => {
      const notified: string[] = [];
      const ui: UIContext = {
        select: async () => undefined,
        confirm: async () => false,
        input: async () => undefined,
        notify: (message) => void notified.push(message),
      };
      const harness = await createToolHarness({
        paths: join(fixturesDir, "dialects", "pi-extensions", "session-handlers-use-ui.ts"),
        cwd: fixturesDir,
        cacheDir: testCacheDir(`regression-pi-session-ui-${isolation}`),
        isolation,
        ui,
      });
      try {
        expect(harness.diagnostics).toEqual([]);
        const seen = await harness.call("ext_seen", {});
        expect(seen.content).toEqual([{ type: "text", text: "hasUI=true" }]);
      } finally {
        await harness.dispose();
      }
      expect(harness.diagnostics).toEqual([]);
      expect(notified).toEqual(["extension ready", "extension done"]);
    });
  },
);
