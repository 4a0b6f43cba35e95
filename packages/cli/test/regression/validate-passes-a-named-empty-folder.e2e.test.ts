// Found by a bug hunt: `tooldock validate t1 empty`, where t1 has tools and `empty` is an
// empty folder, passed with no word about `empty`: a tools folder emptied by a bad merge
// passed CI as long as another named path still had tools, though an emptied folder alone is
// E_NOTHING_TO_VALIDATE. Fixed: each path named on the command line that yields no module is
// E_NOTHING_TO_VALIDATE naming it (an error, --strict or not, as for a single path); `schema`
// fails the same way and `list` says it on stderr.
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

const TOOL = `export default (pi) => ({
  name: "word_count",
  label: "Word count",
  description: "Counts words.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text", text: "0" }] }; },
});
`;

describe("a named path that yields no module beside one that does", () => {
  it("fails validate, --isolate or not, naming the path", async () => {
    const dir = await tempDir({ "t1/word-count.ts": TOOL, "empty/README.md": "Nothing yet.\n" });
    try {
      for (const flags of [[], ["--no-isolate"], ["--strict"]]) {
        const run = await runCli(["validate", "t1", "--tools", "empty", ...flags, "--format", "json"], {
          cwd: dir.path,
        });
        expect(run.code).toBe(1);
        const report = JSON.parse(run.stdout);
        expect(report.tools.map((tool: { name: string }) => tool.name)).toEqual(["word_count"]);
        expect(report.diagnostics).toEqual([
          expect.objectContaining({
            code: "E_NOTHING_TO_VALIDATE",
            path: "empty",
            message:
              "No tool module was found in empty, one of the paths given, so nothing in it was validated.",
          }),
        ]);
      }
    } finally {
      await dir.remove();
    }
  });

  it("is no error when the path's modules were found through another path", async () => {
    const dir = await tempDir({ "t1/word-count.ts": TOOL });
    try {
      const run = await runCli(["validate", "t1", "t1/word-count.ts", "--no-isolate"], { cwd: dir.path });
      expect(run.code).toBe(0);
    } finally {
      await dir.remove();
    }
  });

  it("fails schema and is said by list", async () => {
    const dir = await tempDir({ "t1/word-count.ts": TOOL, "empty/README.md": "Nothing yet.\n" });
    try {
      const schema = await runCli(["schema", "t1", "empty"], { cwd: dir.path });
      expect(schema.code).toBe(1);
      expect(schema.stderr).toContain("No tool module was found in empty, one of the paths given");
      const list = await runCli(["list", "t1", "empty"], { cwd: dir.path });
      expect(list.code).toBe(0);
      expect(list.stderr).toContain("No tool module was found in empty, one of the paths given");
    } finally {
      await dir.remove();
    }
  });
});
