import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../src/testing/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Found by a bug hunt: pi's ExtensionAPI has session actions besides its registrations
// (sendUserMessage, appendEntry, setSessionName, getActiveTools, setModel, …); Tooldock's `pi`
// had none of them, so an extension calling one failed with "pi.appendEntry is not a
// function" (at load, E_FACTORY_THROW; in a tool, a failed call). Fixed: each is a stand-in
// doing what a headless host can, named once in a W_EXTENSION_FEATURE warning when the
// module uses it while it loads.
describe.each(["none", "process"] as const)("pi's session actions (isolation %s)", (isolation) => {
  let harness: ToolHarness | undefined;
  afterEach(async () => {
    await harness?.dispose();
    harness = undefined;
  });

  it("are stand-ins: actions do nothing, getters answer empty; each used at load warns once", async () => {
    harness = await createToolHarness({
      paths: join(fixturesDir, "dialects", "pi-extensions", "session-actions.ts"),
      cwd: fixturesDir,
      cacheDir: testCacheDir(`regression-pi-actions-${isolation}`),
      isolation,
    });
    expect(
      harness.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message.match(/uses (\S+)/)?.[1]]),
    ).toEqual([
      ["W_EXTENSION_FEATURE", "pi.appendEntry"],
      ["W_EXTENSION_FEATURE", "pi.setSessionName"],
      ["W_EXTENSION_FEATURE", "pi.getActiveTools"],
    ]);
    const result = await harness.call("ext_actions", {});
    expect(result.content).toEqual([
      {
        type: "text",
        text: "active=[] all=0 commands=0 name=undefined thinking=off switched=false",
      },
    ]);
  });
});
