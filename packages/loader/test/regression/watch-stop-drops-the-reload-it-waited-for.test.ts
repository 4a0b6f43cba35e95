// Found by a review: a reload that finished while `watcher.stop()` waited for it was never
// given to `onReload` (the watch was already closed). A server takes each reload there: it
// holds the reload's `cached` (the packs a cold reload writes after it, on Node 22.15+) until
// it exits, so the next start is warm. A server stopped mid-reload lost that reload's packs
// (and never heard of the tools it registered). `onReload` now hears of every reload that
// finished, the one `stop()` waited for included, before `stop()` resolves; none after.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { afterAll, expect, it } from "vitest";
import { type ToolsReload, watchCustomTools } from "../../src/index.js";
import { testCacheDir } from "../helpers.js";
import { echoToolSource } from "../tool-sources.js";

const root = testCacheDir("watch-stop-mid-reload");
afterAll(() => rm(root, { recursive: true, force: true }));

it("watch-stop-drops-the-reload-it-waited-for: onReload hears of the reload stop() waited for", async () => {
  const dir = join(root, "tools");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "alpha.ts"), echoToolSource("alpha", "a"));
  const session = new Session({ cwd: dir });
  const heard: ToolsReload[] = [];
  const watcher = await watchCustomTools({
    paths: [dir],
    cwd: dir,
    session,
    cacheDir: join(root, "cache"),
    debounceMs: 60_000, // reloads come from reload() only
    onReload: (reload) => heard.push(reload),
  });
  try {
    await writeFile(join(dir, "beta.ts"), echoToolSource("beta", "b"));
    const reloading = watcher.reload(); // running when stop() is called
    await watcher.stop();
    const reload = await reloading;
    expect(reload.changes.added).toEqual(["beta"]);
    expect(heard.map(({ changes }) => changes.added)).toEqual([["beta"]]);
    expect(heard[0]?.cached).toBe(reload.cached); // for the host to hold
    await writeFile(join(dir, "gamma.ts"), echoToolSource("gamma", "c"));
    await expect(watcher.reload()).rejects.toMatchObject({ code: "E_WATCH" });
    expect(heard).toHaveLength(1); // none after stop()
  } finally {
    await watcher.close();
    await session.dispose();
    // On Node 22.15+ a cold load writes its packs after it returns: not into a removed folder.
    await Promise.all([watcher.initial.cached, ...heard.map(({ cached }) => cached)]);
  }
});
