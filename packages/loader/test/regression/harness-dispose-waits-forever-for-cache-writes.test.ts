// Found by a review: `harness.dispose()` awaited the load's `cached` (its pack writes) with no
// cap, so an esbuild build that never settles hung a tool author's test until the runner's
// timeout, blaming the test. The CLI waits for those writes at most 10 s; `dispose()` now
// waits as long and then returns (the next load compiles what was not written).
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { createToolHarness } from "../../src/testing/index.js";
import { testCacheDir } from "../helpers.js";
import { echoToolSource } from "../tool-sources.js";

const root = testCacheDir("harness-dispose-cached-never-settles");
afterAll(() => rm(root, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

it("harness-dispose-waits-forever-for-cache-writes: dispose() returns though `cached` never settles", async () => {
  const dir = join(root, "tools");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "echo.ts"), echoToolSource("echo", "hi"));
  // The load's cache writes start in an immediate queued as it returns (see
  // `ModuleCompiler.cached`): on a fake clock (running with real time meanwhile, for the
  // load's own immediates) uninstalled before that one runs, `cached` never settles.
  vi.useFakeTimers({ toFake: ["setImmediate"], shouldAdvanceTime: true });
  const harness = await createToolHarness({
    paths: join(dir, "echo.ts"),
    cwd: dir,
    cacheDir: join(root, "cache"),
  });
  vi.useRealTimers();
  expect(harness.tools.map(({ tool }) => tool.name)).toEqual(["echo"]);
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  let disposed = false;
  const disposing = harness.dispose().then(() => {
    disposed = true;
  });
  await vi.runAllTimersAsync(); // the cap's timer, once dispose() armed it
  expect(disposed).toBe(true);
  await disposing;
});
