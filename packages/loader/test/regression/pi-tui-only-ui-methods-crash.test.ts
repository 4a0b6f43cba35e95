import { join } from "node:path";
import type { UIContext } from "@tooldock/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../src/testing/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Found by a bug hunt: a registered tool's `ctx.ui` had only Tooldock's select, confirm,
// input and notify, so a tool calling pi's TUI-only methods (setStatus, setWidget, setTitle,
// custom, theme.fg, …) failed with "… is not a function", where pi's own headless mode gives
// no-ops. Fixed: pi extensions get those methods as pi's headless mode has them; the dialogs
// are still the host's.
describe.each(["none", "process"] as const)("pi's TUI-only UI methods (isolation %s)", (isolation) => {
  let harness: ToolHarness | undefined;
  afterEach(async () => {
    await harness?.dispose();
    harness = undefined;
  });
  const call = async (ui?: UIContext) => {
    harness = await createToolHarness({
      paths: join(fixturesDir, "dialects", "pi-extensions", "tui-only-ui.ts"),
      cwd: fixturesDir,
      cacheDir: testCacheDir(`regression-pi-tui-${isolation}`),
      isolation,
      ui,
    });
    expect(harness.diagnostics).toEqual([]);
    return harness.call("ext_tui", {});
  };

  it("do nothing with a host UI, whose dialogs still answer", async () => {
    const ui: UIContext = {
      select: async () => undefined,
      confirm: async () => true,
      input: async () => undefined,
      notify: () => {},
    };
    const result = await call(ui);
    expect(result.content).toEqual([
      { type: "text", text: 'editor="" custom=undefined styled=ok confirm=true' },
    ]);
  });

  it("do nothing without a UI, as in pi's headless mode", async () => {
    const result = await call();
    expect(result.content).toEqual([
      { type: "text", text: 'editor="" custom=undefined styled=ok confirm=false' },
    ]);
  });
});
