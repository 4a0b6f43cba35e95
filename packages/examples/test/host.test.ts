import { describe, expect, it } from "vitest";
import { examplesPackageDirectory, runExampleHost } from "../src/index.js";
import { tempDir, textOf } from "./temp-dir.js";

describe("the example host", () => {
  it("loads the examples, previews a rename, and applies it through resolve", async () => {
    const dir = await tempDir({ "draft-a.txt": "a", "draft-b.txt": "b" });
    const lines: string[] = [];
    try {
      const result = await runExampleHost({
        toolsPath: examplesPackageDirectory,
        cwd: dir.path,
        log: (line) => lines.push(line),
      });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toContain("Renamed 2 file(s)");
      expect(await dir.files()).toEqual(["final-a.txt", "final-b.txt"]);
      const log = lines.join("\n");
      expect(log).toContain("Loaded 7 tool(s)");
      expect(log).toContain('tool_choice {"type":"function","function":{"name":"resolve"}}');
      expect(log).toContain("[reminder for the model]");
    } finally {
      await dir.remove();
    }
  });
});
