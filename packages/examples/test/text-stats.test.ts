import { fileURLToPath } from "node:url";
import { createToolHarness, type ToolHarness } from "@tooldock/loader/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { computeTextStats } from "../tools/text-stats.js";
import { tempDir, textOf } from "./temp-dir.js";

const tool = fileURLToPath(new URL("../tools/text-stats.ts", import.meta.url));

describe("computeTextStats", () => {
  it("counts lines, words, characters and the most frequent words", () => {
    expect(computeTextStats("a.txt", "The cat\nthe dog é\n", 2, false)).toEqual({
      path: "a.txt",
      lines: 2,
      words: 5,
      characters: 18,
      topWords: [
        { word: "the", count: 2 },
        { word: "cat", count: 1 },
      ],
    });
  });
});

describe("text_stats (zod parameters)", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let harness: ToolHarness;

  beforeEach(async () => {
    dir = await tempDir({ "poem.txt": "Rose rose ROSE\nis a rose\n" });
    harness = await createToolHarness({ paths: tool, cwd: dir.path });
  });

  afterEach(async () => {
    await harness.dispose();
    await dir.remove();
  });

  it("loads a zod schema as JSON Schema parameters", () => {
    expect(harness.diagnostics).toEqual([]);
    expect(harness.tools.map((loaded) => loaded.tool.name)).toEqual(["text_stats"]);
  });

  it("reads the file relative to the session's cwd", async () => {
    const result = await harness.call("text_stats", { path: "poem.txt", top: 1, caseSensitive: false });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("poem.txt: 2 lines, 6 words, 25 characters.\nMost frequent: rose (4)");
  });

  it("lets zod reject out-of-range and unknown arguments before execute runs", async () => {
    const tooMany = await harness.call("text_stats", { path: "poem.txt", top: 500, caseSensitive: false });
    expect(tooMany.isError).toBe(true);
    expect(textOf(tooMany)).toContain("top");
    const unknown = await harness.call("text_stats", {
      path: "poem.txt",
      top: 1,
      caseSensitive: false,
      extra: 1,
    });
    expect(unknown.isError).toBe(true);
  });

  it("tells the model when the file cannot be read", async () => {
    const result = await harness.call("text_stats", { path: "nope.txt", top: 1, caseSensitive: true });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Cannot read nope.txt (ENOENT)");
  });
});
