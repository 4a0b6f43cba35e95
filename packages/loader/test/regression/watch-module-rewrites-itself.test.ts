// Attack (or an honest mistake): a module whose factory rewrites its own file (a generated
// header, a timestamp) under `tooldock mcp --watch`. Every load changed the file, every change
// started a load: the server reloaded without end. Fix: reloads started by changes are limited
// (default 10 in any 10 s); past the limit the next one waits, and `onError` says why, once.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TooldockError } from "@tooldock/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { type ToolsReload, watchCustomTools } from "../../src/index.js";
import { testCacheDir } from "../helpers.js";

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

/** A tool whose factory appends a line to its own file each time it runs. */
const selfRewriting = (file: string) => `import { appendFileSync } from "node:fs";
export default (pi) => {
  appendFileSync(${JSON.stringify(file)}, "// loaded again\\n");
  return {
    name: "restless",
    label: "Restless",
    description: "Rewrites its own file whenever it loads.",
    parameters: pi.typebox.Type.Object({}),
    execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
  };
};
`;

describe("regression: a module that rewrites its own file under watch", () => {
  it("reloads at most reloadLimit times in the window, then says why, and the watch closes cleanly", async () => {
    const root = testCacheDir("watch-rewrites-itself");
    roots.push(root);
    const dir = join(root, "tools");
    await mkdir(dir, { recursive: true });
    const file = join(dir, "restless.mjs");
    await writeFile(file, selfRewriting(file));
    const seen: ToolsReload[] = [];
    let reportedAt: number | undefined;
    let reported: TooldockError | undefined;
    let settle: () => void = () => {};
    // Whichever comes first: the limit's report, or far more reloads than the limit allows.
    const outcome = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const watcher = await watchCustomTools({
      paths: [dir],
      cacheDir: join(root, "cache"),
      debounceMs: 0,
      reloadLimit: { reloads: 3, perMs: 600_000 },
      onReload: (reload) => {
        seen.push(reload);
        if (seen.length >= 8) settle();
      },
      onError: (error) => {
        if (reported !== undefined) return;
        reported = error;
        reportedAt = seen.length;
        settle();
      },
    });
    try {
      await outcome;
      expect(reported?.code).toBe("E_WATCH");
      expect(reported?.message).toContain("does a module write its own files when it loads?");
      expect(seen.length).toBeLessThanOrEqual(3);
      expect(reportedAt).toBeLessThanOrEqual(3);
    } finally {
      await watcher.close();
      // Their cache writes may still run (Node 22.15+ writes after the load): the folder goes after.
      await Promise.all([watcher.initial, ...seen].map(({ cached }) => cached));
    }
  });
});
