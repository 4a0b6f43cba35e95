import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createToolHarness, type ToolHarness } from "@tooldock/loader/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir, textOf } from "./temp-dir.js";

const tool = fileURLToPath(new URL("../tools/batch-rename-preview.ts", import.meta.url));

// The same tests in-process and in a tool host: a pending action applies and discards alike.
describe.each(["none", "process"] as const)("batch_rename_preview (isolation: %s)", (isolation) => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let harness: ToolHarness;

  beforeEach(async () => {
    dir = await tempDir({ "draft-a.md": "a", "draft-b.md": "b", "notes.txt": "n" });
    harness = await createToolHarness({ paths: tool, cwd: dir.path, isolation });
  });

  afterEach(async () => {
    await harness.dispose();
    await dir.remove();
  });

  const preview = (params: Record<string, unknown>) =>
    harness.call("batch_rename_preview", { find: "draft-", replace: "final-", regex: false, ...params });

  it("previews without renaming and stages one labelled action", async () => {
    const result = await preview({ files: ["draft-a.md", "draft-b.md", "notes.txt"] });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("draft-a.md → final-a.md");
    expect(textOf(result)).toContain("Nothing has changed yet");
    expect(harness.pending.map((record) => [record.label, record.sourceToolName])).toEqual([
      ['Rename 2 files: "draft-" → "final-"', "batch_rename_preview"],
    ]);
    expect(await dir.files()).toEqual(["draft-a.md", "draft-b.md", "notes.txt"]);
  });

  it("renames for real on apply", async () => {
    await preview({ files: ["draft-a.md", "draft-b.md"] });
    const applied = await harness.resolve("apply", "looks right");
    expect(applied.isError).toBeFalsy();
    expect(textOf(applied)).toContain("Renamed 2 files");
    expect(await dir.files()).toEqual(["final-a.md", "final-b.md", "notes.txt"]);
    expect(harness.pending).toEqual([]);
  });

  it("renames nothing on discard and says so", async () => {
    await preview({ files: ["draft-a.md"] });
    const discarded = await harness.resolve("discard", "not now");
    expect(textOf(discarded)).toContain("No file was renamed. Reason: not now");
    expect(await dir.files()).toEqual(["draft-a.md", "draft-b.md", "notes.txt"]);
    expect(harness.pending).toEqual([]);
  });

  it("keeps the action pending when a target appeared since the preview", async () => {
    await preview({ files: ["draft-a.md"] });
    await writeFile(join(dir.path, "final-a.md"), "someone else's file");
    const failed = await harness.resolve("apply", "go");
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain("final-a.md already exists");
    expect(harness.pending).toHaveLength(1);
    expect(await dir.files()).toEqual(["draft-a.md", "draft-b.md", "final-a.md", "notes.txt"]);
  });

  it("refuses missing files and collisions up front, staging nothing", async () => {
    const missing = await preview({ files: ["draft-zzz.md"] });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain("draft-zzz.md does not exist");
    const collision = await harness.call("batch_rename_preview", {
      files: ["draft-a.md", "draft-b.md"],
      find: "draft-[ab]",
      replace: "same",
      regex: true,
    });
    expect(textOf(collision)).toContain("would both become same.md");
    expect(harness.pending).toEqual([]);
  });

  it("swaps names through temporary names (regex with groups)", async () => {
    await preview({
      files: ["draft-a.md", "draft-b.md"],
      find: "draft-(a|b)",
      replace: "draft-$1$1",
      regex: true,
    });
    await harness.resolve("apply", "ok");
    expect(await dir.files()).toEqual(["draft-aa.md", "draft-bb.md", "notes.txt"]);
  });

  it("refuses new names that would leave the folder", async () => {
    const result = await preview({ files: ["draft-a.md"], replace: "../" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("would leave its folder");
  });
});
