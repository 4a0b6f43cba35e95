// Attack (found on a real pi tool folder, no malice needed): `tooldock list weather/`, where
// `weather/` is a pi tool folder: `index.ts` is the tool, and beside it `run.ts` is a runner
// script that deletes the file named by its first argument (`process.argv[2]`) when run. Tooldock
// imported every top-level file of the folder, so it ran `run.ts` with the CLI's own argv, whose
// [2] is the command name: the user's file named `list` in the working folder was deleted. Fixed:
// a folder with an `index.*` file and no package manifest is one tool folder, as pi loads it: its
// index is the module, and nothing else in it is imported.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

const TOOL = `export default (pi) => ({
  name: "weather",
  label: "Weather",
  description: "Says the weather.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text", text: "sunny" }] }; },
});
`;

const RUNNER = `import { rmSync } from "node:fs";
const target = process.argv[2];
if (target) rmSync(target, { force: true });
`;

const HELPER = `export const units = "metric";\nthrow new Error("render.ts was imported as a module");\n`;

describe("regression: a runner script beside a tool folder's index", () => {
  it("is never imported: the user's file named like the command survives, and only the index's tool loads", async () => {
    assertBuilt();
    const work = await tempDir({
      list: "the user's notes\n",
      "weather/index.ts": TOOL,
      "weather/run.ts": RUNNER,
      "weather/render.ts": HELPER,
    });
    try {
      const run = await runCli(["list", "weather", "--json"], { cwd: work.path });
      expect(existsSync(join(work.path, "list"))).toBe(true);
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout);
      expect(report.tools.map((tool: { name: string }) => tool.name)).toEqual(["weather"]);
      expect(report.diagnostics).toEqual([]);
    } finally {
      await work.remove();
    }
  });
});
