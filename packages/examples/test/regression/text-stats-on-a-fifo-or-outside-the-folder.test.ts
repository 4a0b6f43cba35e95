import { execFile } from "node:child_process";
import { open, symlink } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createToolHarness, type ToolHarness } from "@tooldock/loader/testing";
import { afterEach, beforeEach, expect, it } from "vitest";
import { tempDir, textOf } from "../temp-dir.js";

// text_stats read any path with readFile: a FIFO planted in the working folder (say by
// another user of a shared folder) held the call and a thread of Node's pool forever,
// `/dev/zero` read until memory ran out, and `../`, absolute paths and symbolic links
// read files outside the working folder the parameter names as the root.

const tool = fileURLToPath(new URL("../../tools/text-stats.ts", import.meta.url));

let outside: Awaited<ReturnType<typeof tempDir>>;
let project: Awaited<ReturnType<typeof tempDir>>;
let harness: ToolHarness;

beforeEach(async () => {
  outside = await tempDir({ "secret.txt": "hunter2 hunter2\n" });
  project = await tempDir({ "poem.txt": "a rose\n" });
  harness = await createToolHarness({ paths: tool, cwd: project.path });
});

afterEach(async () => {
  await harness.dispose();
  await Promise.all([project.remove(), outside.remove()]);
});

const stats = (path: string) => harness.call("text_stats", { path, top: 3, caseSensitive: false });

it.skipIf(process.platform === "win32")(
  "answers with an error for a FIFO instead of waiting on it",
  async () => {
    const fifo = join(project.path, "notes.txt");
    await promisify(execFile)("mkfifo", [fifo]);
    try {
      const result = await stats("notes.txt");
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("notes.txt is not a regular file");
    } finally {
      // A reader still blocked on the FIFO (the bug) gets its end of file and lets go.
      const writer = await open(fifo, "r+");
      await writer.close();
    }
  },
);

it("refuses files outside the working folder: ../, absolute, through a symbolic link", async () => {
  await symlink(join(outside.path, "secret.txt"), join(project.path, "link.txt"));
  for (const path of [
    "../" + outside.path.split("/").at(-1) + "/secret.txt",
    join(outside.path, "secret.txt"),
    "link.txt",
  ]) {
    const result = await stats(path);
    expect(result.isError, path).toBe(true);
    expect(textOf(result)).toContain("is outside the working directory");
    expect(textOf(result)).not.toContain("hunter2");
  }
  expect(textOf(await stats("poem.txt"))).toContain("poem.txt: 1 line, 2 words");
});
