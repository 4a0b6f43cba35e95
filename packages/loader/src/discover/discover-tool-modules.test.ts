import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoverToolModules } from "./discover-tool-modules.js";
import { expandPath } from "./expand-path.js";
import { type DiscoveryFileSystem, nodeDiscoveryFileSystem } from "./file-system.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tooldock-discover-"));
  const files: Record<string, string> = {
    "tools/a.ts": "",
    "tools/b.mjs": "",
    "tools/c.cjs": "",
    "tools/d.mts": "",
    "tools/e.cts": "",
    "tools/f.js": "",
    "tools/g.d.ts": "",
    "tools/h.test.ts": "",
    "tools/i.spec.js": "",
    "tools/.hidden.ts": "",
    "tools/notes.md": "",
    "tools/data.json": "",
    "tools/style.css": "",
    "tools/folder/index.ts": "",
    "tools/folder/other.ts": "",
    "tools/js-folder/index.mjs": "",
    "tools/empty-folder/readme.md": "",
    "tools/.hidden-folder/index.ts": "",
    "tools/node_modules/dep/index.js": "",
    "tools/pkg/package.json": JSON.stringify({
      name: "pkg",
      tooldock: { tools: ["./src/one.ts", "two.ts"] },
    }),
    "tools/pkg/src/one.ts": "",
    "tools/pkg/two.ts": "",
    "tools/pkg/index.ts": "",
    "self/package.json": JSON.stringify({ pi: { tools: ["."] } }),
    "plain-package/package.json": JSON.stringify({ name: "plain", main: "index.js" }),
    "plain-package/index.ts": "",
    "pi-tool-folder/index.ts": "",
    "pi-tool-folder/agents.ts": "",
    "pi-tool-folder/render.ts": "",
    "pi-tool-folder/run.ts": "",
    "pi-tool-folder/src/index.ts": "",
    "pi-tool-folder/dist/index.js": "",
  };
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), content);
  }
  await symlink(join(root, "tools/a.ts"), join(root, "link-to-a.ts"));
  await symlink(join(root, "loop-a"), join(root, "loop-b"));
  await symlink(join(root, "loop-b"), join(root, "loop-a"));
  await symlink(join(root, "tools"), join(root, "tools-link"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const relative = (paths: string[]) => paths.map((path) => path.replace(`${root}/`, ""));

describe("discoverToolModules", () => {
  it("loads a given folder with an index file as one tool folder: its index, none of its other files", async () => {
    const { modules, diagnostics } = await discoverToolModules({ paths: [join(root, "pi-tool-folder")] });
    expect(diagnostics).toEqual([]);
    expect(relative(modules.map((module) => module.path))).toEqual(["pi-tool-folder/index.ts"]);
  });

  it("finds the same real paths with the lstat shortcut as with a realpath per module", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "tooldock-discover-real-"));
    try {
      await mkdir(join(scratch, "real/tools/plain"), { recursive: true });
      await mkdir(join(scratch, "real/tools/linked-index"), { recursive: true });
      await writeFile(join(scratch, "real/tools/a.ts"), "");
      await writeFile(join(scratch, "real/tools/plain/index.ts"), "");
      await symlink(join(scratch, "real/tools/a.ts"), join(scratch, "real/tools/linked-index/index.ts"));
      await symlink(join(scratch, "real/tools/plain"), join(scratch, "real/tools/z-linked-folder"));
      await symlink(join(scratch, "real"), join(scratch, "via-link"));
      const { lstatIfExists: _unused, ...withoutLstat } = nodeDiscoveryFileSystem;
      const options = { paths: ["via-link/tools"], cwd: scratch };
      const fast = await discoverToolModules(options);
      const slow = await discoverToolModules({ ...options, fileSystem: withoutLstat });
      expect(fast).toEqual(slow);
      // Found through the linked folder, named by the real one; each file once.
      expect(fast.modules).toEqual([
        { path: join(scratch, "via-link/tools/a.ts"), resolvedPath: join(scratch, "real/tools/a.ts") },
        {
          path: join(scratch, "via-link/tools/plain/index.ts"),
          resolvedPath: join(scratch, "real/tools/plain/index.ts"),
        },
      ]);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it("finds top-level modules, subfolder index files and manifest entries; skips the rest", async () => {
    const { modules, diagnostics } = await discoverToolModules({ paths: ["tools"], cwd: root });
    expect(diagnostics).toEqual([]);
    expect(relative(modules.map((module) => module.path))).toEqual([
      "tools/a.ts",
      "tools/b.mjs",
      "tools/c.cjs",
      "tools/d.mts",
      "tools/e.cts",
      "tools/f.js",
      "tools/folder/index.ts",
      "tools/js-folder/index.mjs",
      "tools/pkg/src/one.ts",
      "tools/pkg/two.ts",
    ]);
  });

  it("de-duplicates by real path and records it", async () => {
    const { modules } = await discoverToolModules({
      paths: ["link-to-a.ts", "tools/a.ts", "tools-link"],
      cwd: root,
    });
    expect(modules[0]).toEqual({ path: join(root, "link-to-a.ts"), resolvedPath: join(root, "tools/a.ts") });
    expect(modules.filter((module) => module.resolvedPath === join(root, "tools/a.ts"))).toHaveLength(1);
    expect(modules).toHaveLength(10);
  });

  it("loads an explicitly named file even when a directory scan would skip it", async () => {
    const { modules } = await discoverToolModules({ paths: [join(root, "tools/h.test.ts")] });
    expect(relative(modules.map((module) => module.path))).toEqual(["tools/h.test.ts"]);
  });

  it("scans a package without a tool manifest like any folder", async () => {
    const { modules } = await discoverToolModules({ paths: ["plain-package"], cwd: root });
    expect(relative(modules.map((module) => module.path))).toEqual(["plain-package/index.ts"]);
  });

  it("reports missing paths, symlink loops, self-listing packages and non-modules", async () => {
    const { modules, diagnostics } = await discoverToolModules({
      paths: ["missing", "loop-a", "self", "tools/notes.md", "tools/data.json", "tools/style.css"],
      cwd: root,
    });
    expect(modules).toEqual([]);
    expect(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message.replaceAll(root, "<root>")]),
    ).toEqual([
      ["E_DISCOVERY", 'Tool path <root>/missing ("missing") does not exist.'],
      ["E_DISCOVERY", 'Tool path <root>/loop-a ("loop-a") is a symbolic link loop.'],
      ["E_DISCOVERY", 'Package <root>/self lists itself (".") in "pi.tools".'],
      [
        "E_NOT_EXECUTABLE",
        "<root>/tools/notes.md is not a tool module: metadata files (.md, .json) are never executed.",
      ],
      [
        "E_NOT_EXECUTABLE",
        "<root>/tools/data.json is not a tool module: metadata files (.md, .json) are never executed.",
      ],
      ["E_NOT_EXECUTABLE", '<root>/tools/style.css is not a tool module: ".css" is not a module extension.'],
    ]);
  });

  it("reports an unreadable folder instead of skipping it silently", async () => {
    const fileSystem: DiscoveryFileSystem = {
      ...nodeDiscoveryFileSystem,
      readdir: async (path) => {
        if (path.endsWith("tools"))
          throw Object.assign(new Error(`EACCES: permission denied, scandir '${path}'`), { code: "EACCES" });
        return nodeDiscoveryFileSystem.readdir(path);
      },
    };
    const { modules, diagnostics } = await discoverToolModules({
      paths: ["tools", "plain-package"],
      cwd: root,
      fileSystem,
    });
    expect(relative(modules.map((module) => module.path))).toEqual(["plain-package/index.ts"]);
    expect(diagnostics).toEqual([
      {
        code: "E_DISCOVERY",
        severity: "error",
        message: `Tool path ${join(root, "tools")} cannot be read (permission denied).`,
        path: join(root, "tools"),
        hint: "Check the path and its permissions, or remove it from the tool paths.",
      },
    ]);
  });
});

describe("discoverToolModules on files that must never be read", () => {
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "tooldock-discover-special-"));
    await mkdir(join(scratch, "tools/looping-index"), { recursive: true });
    await mkdir(join(scratch, "tools/vanishing"), { recursive: true });
    await symlink("/dev/zero", join(scratch, "tools/zero.ts"));
    await symlink("index.ts", join(scratch, "tools/looping-index/index.ts"));
  });

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it("reports a device behind a module name, a looping subfolder index and a folder removed while scanned", async () => {
    const fileSystem: DiscoveryFileSystem = {
      ...nodeDiscoveryFileSystem,
      readdir: async (path) => {
        const entries = await nodeDiscoveryFileSystem.readdir(path);
        // The subfolder is listed, then removed before discovery looks inside it.
        if (path === join(scratch, "tools")) await rm(join(scratch, "tools/vanishing"), { recursive: true });
        return entries;
      },
    };
    const { modules, diagnostics } = await discoverToolModules({
      paths: ["tools", "/dev/null"],
      cwd: scratch,
      fileSystem,
    });
    expect(modules).toEqual([]);
    expect(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message.replaceAll(scratch, "<root>")]),
    ).toEqual([
      ["E_DISCOVERY", "Tool path <root>/tools/looping-index/index.ts is a symbolic link loop."],
      ["E_DISCOVERY", "Tool path <root>/tools/vanishing does not exist."],
      [
        "E_DISCOVERY",
        "Tool path <root>/tools/zero.ts is not a regular file (a device, FIFO or socket); it is never read.",
      ],
      [
        "E_DISCOVERY",
        "Tool path /dev/null is not a regular file (a device, FIFO or socket); it is never read.",
      ],
    ]);
  });
});

describe("expandPath", () => {
  it("expands ~ and resolves relative paths against cwd", () => {
    expect(expandPath("~", "/work")).toBe(homedir());
    expect(expandPath("~/tools", "/work")).toBe(join(homedir(), "tools"));
    expect(expandPath("tools/a.ts", "/work")).toBe("/work/tools/a.ts");
    expect(expandPath("/abs/../x", "/work")).toBe("/x");
    expect(expandPath("~other", "/work")).toBe("/work/~other");
  });
});
