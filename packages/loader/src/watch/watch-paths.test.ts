import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { watchPaths } from "./watch-paths.js";

let root: string;
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Watches `locations`, collecting changed paths, and resolves once `last` is seen. */
function collect(locations: string[], ignored: string[] = []) {
  const seen: string[] = [];
  const errors: string[] = [];
  let wake: (() => void) | undefined;
  let awaited = "";
  const watch = watchPaths(
    locations,
    (path) => {
      seen.push(path);
      if (path === awaited) wake?.();
    },
    (_error, location) => errors.push(location),
    ignored,
  );
  return {
    seen,
    errors,
    watch,
    until(path: string) {
      awaited = path;
      return seen.includes(path) ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve));
    },
  };
}

describe("watchPaths", () => {
  it("sees module edits in nested folders and ignores node_modules, .git, other files and ignored folders", async () => {
    root = await mkdtemp(join(tmpdir(), "tooldock-watch-paths-"));
    for (const folder of ["nested", "node_modules/.cache", ".git", "cache"])
      await mkdir(join(root, folder), { recursive: true });
    const watching = collect([root], [join(root, "cache")]);
    try {
      // Written first: none may be reported. The last write is awaited; events come in order.
      await writeFile(join(root, "node_modules/.cache/bundle.mjs"), "x");
      await writeFile(join(root, ".git/index.json"), "x");
      await writeFile(join(root, "notes.md"), "x");
      await writeFile(join(root, "cache/bundle.mjs"), "x");
      await writeFile(join(root, "nested/tool.ts"), "x");
      await watching.until(join(root, "nested/tool.ts"));
      expect(new Set(watching.seen)).toEqual(new Set([join(root, "nested/tool.ts")]));
    } finally {
      watching.watch.close();
      watching.watch.close(); // idempotent
    }
  });

  it("watches a single file through its folder, and reports a location it cannot watch", async () => {
    root = await mkdtemp(join(tmpdir(), "tooldock-watch-paths-"));
    const tool = join(root, "tool.ts");
    await writeFile(tool, "x");
    const missing = join(root, "missing");
    const watching = collect([tool, missing]);
    try {
      expect(watching.errors).toEqual([missing]);
      await writeFile(join(root, "sibling.ts"), "x");
      await writeFile(tool, "y");
      await watching.until(tool);
      expect(new Set(watching.seen)).toEqual(new Set([tool]));
    } finally {
      watching.watch.close();
    }
  });
});
