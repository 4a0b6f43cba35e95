import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
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
  let awaitedTimes = 1;
  const count = (path: string) => seen.filter((one) => one === path).length;
  const watch = watchPaths(
    locations,
    (path) => {
      seen.push(path);
      if (path === awaited && count(path) >= awaitedTimes) wake?.();
    },
    (_error, location) => errors.push(location),
    ignored,
  );
  return {
    seen,
    errors,
    watch,
    /** Resolves once `path` has been reported `times` times. */
    until(path: string, times = 1) {
      awaited = path;
      awaitedTimes = times;
      return count(path) >= times ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve));
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

// Found by a bug hunt: a folder moved out of a watched folder was never noticed (its name has
// no module extension), and a watched folder deleted and made again was never watched again,
// with no error said.
describe("watchPaths, folders that come and go", () => {
  it("reports a tool folder moved out of the watched folder", async () => {
    root = await mkdtemp(join(tmpdir(), "tooldock-watch-paths-"));
    const tools = join(root, "tools");
    await mkdir(join(tools, "pkg"), { recursive: true });
    await writeFile(join(tools, "pkg/index.ts"), "x");
    const watching = collect([tools]);
    try {
      await rename(join(tools, "pkg"), join(root, "elsewhere"));
      await watching.until(join(tools, "pkg"));
    } finally {
      watching.watch.close();
    }
  });

  it("watches a watched folder again once it is made anew after its removal", async () => {
    root = await mkdtemp(join(tmpdir(), "tooldock-watch-paths-"));
    const tools = join(root, "tools");
    await mkdir(tools);
    const watching = collect([tools]);
    try {
      await rm(tools, { recursive: true });
      await watching.until(tools); // gone
      await mkdir(tools);
      await watching.until(tools, 2); // back, and watched again
      await writeFile(join(tools, "gamma.ts"), "x");
      await watching.until(join(tools, "gamma.ts"));
      expect(watching.errors).toEqual([]);
    } finally {
      watching.watch.close();
    }
  });
});

// A watched folder removed with its parent (`rm -rf .pi` for `.pi/tools`) was never watched
// again: waiting on the parent failed, and only onError heard of it.
describe("watchPaths, a folder removed with its parent", () => {
  it("watches it again once both are made anew (watched-folder-parent-removed)", async () => {
    root = await mkdtemp(join(tmpdir(), "tooldock-watch-paths-"));
    const project = join(root, "project");
    const tools = join(project, ".pi", "tools");
    await mkdir(tools, { recursive: true });
    const watching = collect([tools]);
    try {
      await rm(join(project, ".pi"), { recursive: true });
      await watching.until(tools); // gone
      await mkdir(join(project, ".pi"));
      await mkdir(tools);
      await watching.until(tools, 2); // made again: reported once more
      await writeFile(join(tools, "gamma.ts"), "x");
      await watching.until(join(tools, "gamma.ts"));
      expect(watching.seen.filter((path) => path === tools)).toHaveLength(2);
      expect(watching.errors).toEqual([]);
    } finally {
      watching.watch.close();
    }
  });
});

// Found by a bug hunt: on Node 20 and 22 an editor's atomic save (a file written beside the
// module, then renamed over it) was seen once; the module's next save went unseen.
describe("watchPaths, atomic saves", () => {
  it("sees every atomic save of a module, not only the first", async () => {
    root = await mkdtemp(join(tmpdir(), "tooldock-watch-paths-"));
    const tools = join(root, "tools");
    await mkdir(tools);
    const module = join(tools, "a.ts");
    await writeFile(module, "v0");
    let saves = 0;
    let wake: (() => void) | undefined;
    const watch = watchPaths(
      [tools],
      (path) => {
        if (path === module) wake?.();
      },
      () => {},
    );
    const saved = () => new Promise<void>((resolve) => (wake = resolve));
    try {
      for (const version of ["v1", "v2", "v3"]) {
        const seen = saved();
        await writeFile(join(tools, ".a.ts.tmp"), version);
        await rename(join(tools, ".a.ts.tmp"), module);
        await seen;
        saves += 1;
      }
      expect(saves).toBe(3);
    } finally {
      watch.close();
    }
  });
});

// Found by the second read: a file without an extension (LICENSE) counted as a folder that
// came or went.
describe("watchPaths, files without an extension", () => {
  it("does not count them", async () => {
    root = await mkdtemp(join(tmpdir(), "tooldock-watch-paths-"));
    const watching = collect([root]);
    try {
      await writeFile(join(root, "LICENSE"), "x");
      await writeFile(join(root, "last.ts"), "x");
      await watching.until(join(root, "last.ts"));
      // A new file may be reported twice (made, then written): as a set, only it.
      expect(new Set(watching.seen)).toEqual(new Set([join(root, "last.ts")]));
    } finally {
      watching.watch.close();
    }
  });
});
