import { rename, symlink } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createToolHarness, type ToolHarness } from "@tooldock/loader/testing";
import { afterEach, beforeEach, expect, it } from "vitest";
import { tempDir, textOf } from "../temp-dir.js";

// batch_rename_preview refused `../` and absolute paths, but a folder of the working folder
// that is a symbolic link to somewhere else passed: `link/draft-x.md` previewed, and apply
// renamed the file in the folder the link points to, outside the working folder.

const tool = fileURLToPath(new URL("../../tools/batch-rename-preview.ts", import.meta.url));

let outside: Awaited<ReturnType<typeof tempDir>>;
let project: Awaited<ReturnType<typeof tempDir>>;
let harness: ToolHarness;

beforeEach(async () => {
  outside = await tempDir({ "draft-x.md": "someone else's file" });
  project = await tempDir({ "sub/draft-y.md": "y" });
  harness = await createToolHarness({ paths: tool, cwd: project.path });
});

afterEach(async () => {
  await harness.dispose();
  await Promise.all([project.remove(), outside.remove()]);
});

const rename_ = (files: string[]) =>
  harness.call("batch_rename_preview", { files, find: "draft-", replace: "final-", regex: false });

it("refuses a file reached through a symbolic link to a folder outside the working folder", async () => {
  await symlink(outside.path, join(project.path, "link"));

  const result = await rename_(["link/draft-x.md"]);

  expect(result.isError).toBe(true);
  expect(textOf(result)).toContain("link/draft-x.md is outside the working directory");
  expect(harness.pending).toEqual([]);
  expect(await outside.files()).toEqual(["draft-x.md"]);
});

it("refuses to apply when a folder was replaced by such a link after the preview", async () => {
  expect((await rename_(["sub/draft-y.md"])).isError).toBeFalsy();
  await rename(join(project.path, "sub"), join(project.path, "moved"));
  await rename(join(outside.path, "draft-x.md"), join(outside.path, "draft-y.md"));
  await symlink(outside.path, join(project.path, "sub"));

  const applied = await harness.resolve("apply", "go");

  expect(applied.isError).toBe(true);
  expect(textOf(applied)).toContain("sub/draft-y.md is outside the working directory");
  expect(harness.pending).toHaveLength(1);
  expect(await outside.files()).toEqual(["draft-y.md"]);
});
