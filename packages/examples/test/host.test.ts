import { describe, expect, it } from "vitest";
import { examplesPackageDirectory, runExampleHost } from "../src/index.js";
import { tempDir } from "./temp-dir.js";

describe("the example host (the README's chat server with a scripted model)", () => {
  it("runs two conversations at once: one applies its rename, the other discards its own", async () => {
    const seed = { "draft-a.txt": "a", "draft-b.txt": "b" };
    const folders = { apply: await tempDir(seed), discard: await tempDir(seed) };
    const lines: string[] = [];
    try {
      const answers = await runExampleHost({
        toolsPath: examplesPackageDirectory,
        folders: { apply: folders.apply.path, discard: folders.discard.path },
        log: (line) => lines.push(line),
      });
      expect(answers.apply).toContain("Renamed 2 files");
      expect(answers.discard).toContain("Discarded");
      expect(await folders.apply.files()).toEqual(["final-a.txt", "final-b.txt"]);
      expect(await folders.discard.files()).toEqual(["draft-a.txt", "draft-b.txt"]);
      const log = lines.join("\n");
      expect(log).not.toMatch(/^error /m);
      expect(log).toContain('tool_choice {"type":"function","function":{"name":"resolve"}}');
      // The reminder (a user message) comes after the preview's tool result.
      expect(log).toContain(
        '  assistant: batch_rename_preview({"files":["draft-a.txt","draft-b.txt"],"find":"draft-","replace":"final-","regex":false})\n  tool: Preview: ',
      );
      expect(log).toMatch(/ {2}tool: Preview: [^\n]*\n {2}user: [^\n]*resolve/);
    } finally {
      await Promise.all([folders.apply.remove(), folders.discard.remove()]);
    }
  });
});
