// Found by a bug hunt: `tooldock schema PATH` where PATH held no tool module (an empty folder,
// a folder whose only module sits in a subfolder without an index file) printed `[]` on
// stdout and exited 0 with nothing on stderr, so `tooldock schema tools > tools.json` in CI
// silently wrote an empty tool list. `validate` calls the same input E_NOTHING_TO_VALIDATE.
// Fixed: schema fails the same way (exit 1, the error on stderr, nothing on stdout); `list`
// of nothing still exits 0 (listing what is there is a fair question) but says it on stderr.
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

const TOOL = `export default (pi) => ({
  name: "nested",
  label: "Nested",
  description: "Sits in a subfolder without an index file.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text", text: "" }] }; },
});
`;

describe("schema and list of paths that hold no tool module", () => {
  it("schema exits 1, says so on stderr and prints no tool list", async () => {
    const dir = await tempDir({ "nested/sub/tool.ts": TOOL, "empty/README.md": "Nothing yet.\n" });
    try {
      for (const path of ["nested", "empty"]) {
        const run = await runCli(["schema", path], { cwd: dir.path });
        expect(run.code).toBe(1);
        expect(run.stdout).toBe("");
        expect(run.stderr).toContain("E_NOTHING_TO_VALIDATE");
        expect(run.stderr).toContain(
          `No tool module was found in ${path}, so there is no tool definition to print.`,
        );
        expect(run.stderr).toContain("each subfolder's index file");
      }
    } finally {
      await dir.remove();
    }
  });

  it("schema exits 1 when its modules give no tool", async () => {
    const dir = await tempDir({ "tools/unconfigured.ts": "export default () => [];\n" });
    try {
      const run = await runCli(["schema", "tools", "--provider", "openai"], { cwd: dir.path });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("W_NO_TOOLS");
      expect(run.stderr).toContain(
        "The module found in tools gave no tool, so there is no tool definition to print.",
      );
    } finally {
      await dir.remove();
    }
  });

  it("list exits 0 but says on stderr that it found nothing", async () => {
    const dir = await tempDir({ "nested/sub/tool.ts": TOOL });
    try {
      for (const flags of [[], ["--json"]]) {
        const run = await runCli(["list", "nested", ...flags], { cwd: dir.path });
        expect(run.code).toBe(0);
        expect(run.stderr).toContain("No tool module was found in nested, so there is nothing to list.");
      }
    } finally {
      await dir.remove();
    }
  });
});
