// Attack (on CI, no malice needed): `tooldock validate` of an oh-my-pi plugin written in its
// first manifest form, `"omp": { "install": [{ "src": "tools/x/index.ts", "dest":
// "agent/tools/x/index.ts" }] }`. The install list was not read and the package has no
// top-level module, so the report said "0 modules, 0 tools, 0 errors" and validate exited 0:
// CI went green having loaded nothing. Fixed: install entries under agent/tools/ are tool
// entries, a manifest key that lists no tools is a W_MANIFEST_FIELD warning naming it, and
// validate of paths that hold no module at all is E_NOTHING_TO_VALIDATE (exit 1), --strict or not.
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

const TOOL = `export default (pi) => ({
  name: "omp_clock",
  label: "Clock",
  description: "Says the hour.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text", text: "12" }] }; },
});
`;

describe("validate of an oh-my-pi plugin of the install era", () => {
  it("loads the tools its install list puts under agent/tools/", async () => {
    const plugin = await tempDir({
      "package.json": JSON.stringify({
        name: "clock-plugin",
        omp: {
          install: [
            { src: "tools/clock/index.ts", dest: "agent/tools/clock/index.ts" },
            { src: "commands/now.md", dest: "agent/commands/now.md" },
          ],
        },
      }),
      "tools/clock/index.ts": TOOL,
      "commands/now.md": "Call omp_clock.\n",
    });
    try {
      for (const isolate of [[], ["--no-isolate"]]) {
        const run = await runCli(["validate", plugin.path, ...isolate, "--format", "json"]);
        expect(run.code).toBe(0);
        const report = JSON.parse(run.stdout);
        expect(report.tools.map((tool: { name: string }) => tool.name)).toEqual(["omp_clock"]);
      }
    } finally {
      await plugin.remove();
    }
  });

  it("fails, naming why, when the paths hold no module: not only under --strict", async () => {
    const plugin = await tempDir({
      "package.json": JSON.stringify({
        name: "themes-only",
        omp: { install: [{ src: "t.json", dest: "agent/themes/t.json" }] },
      }),
      "t.json": "{}",
    });
    const empty = await tempDir({ "tools/README.md": "No tools here yet.\n" });
    try {
      const run = await runCli(["validate", plugin.path, "--format", "json"]);
      expect(run.code).toBe(1);
      const codes = JSON.parse(run.stdout).diagnostics.map((diagnostic: { code: string }) => diagnostic.code);
      expect(codes).toEqual(["W_NO_TOOLS", "E_NOTHING_TO_VALIDATE"]);
      // The hint points at the warnings when there are some…
      expect(JSON.parse(run.stdout).diagnostics[1].hint).toContain(
        "The W_NO_TOOLS warning says what was skipped.",
      );

      const folder = await runCli(["validate", "tools"], { cwd: empty.path });
      expect(folder.code).toBe(1);
      expect(folder.stdout).toContain("No tool module was found in tools, so nothing was validated.");
      // …and not when nothing was warned about (found by a bug hunt: it always did).
      expect(folder.stdout).not.toContain("what was skipped");
    } finally {
      await plugin.remove();
      await empty.remove();
    }
  });
});
