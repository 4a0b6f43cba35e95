import { fileURLToPath } from "node:url";
import { createToolHarness } from "@tooldock/loader/testing";
import { describe, expect, it } from "vitest";
import { textOf } from "./temp-dir.js";

const tool = fileURLToPath(new URL("../tools/notes.ts", import.meta.url));

describe("notes (one factory, several tools)", () => {
  it("loads three tools that share one scratchpad", async () => {
    const harness = await createToolHarness({ paths: tool });
    try {
      expect(harness.tools.map((loaded) => loaded.tool.name)).toEqual([
        "note_add",
        "note_list",
        "note_clear",
      ]);
      await harness.call("note_add", { text: "check the tests" });
      await harness.call("note_add", { text: "  ship it " });
      expect(textOf(await harness.call("note_list", {}))).toBe("1. check the tests\n2. ship it");
      expect(textOf(await harness.call("note_clear", {}))).toBe("Cleared 2 notes.");
      expect(textOf(await harness.call("note_list", {}))).toContain("No notes yet");
    } finally {
      await harness.dispose();
    }
  });

  it("refuses an empty note through the schema", async () => {
    const harness = await createToolHarness({ paths: tool });
    try {
      expect((await harness.call("note_add", { text: "" })).isError).toBe(true);
    } finally {
      await harness.dispose();
    }
  });
});
