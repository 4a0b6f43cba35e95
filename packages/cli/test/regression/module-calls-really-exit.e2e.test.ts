import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

// Bug: a module that called `process.reallyExit(0)` at import ended `tooldock validate` with
// exit code 0 and no output, so CI went green. (`process.abort()` and
// `process.kill(process.pid, …)` got past the guard the same way.) Now each is blocked:
// validate reports E_PROCESS_EXIT for the module, lists the other tools and exits 1.
const MODULES = {
  "really-exit.ts": "(process as any).reallyExit(0);\nexport default () => [];\n",
  "kill-self.ts": 'process.kill(process.pid, "SIGKILL");\nexport default () => [];\n',
  "abort.ts": "export default () => {\n  process.abort();\n  return [];\n};\n",
  "honest.ts": `export default (pi: any) => ({
  name: "honest_tool",
  label: "Honest",
  description: "Loads whatever the others do.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "ok" }] };
  },
});
`,
};

describe("tooldock validate on modules that end the process without process.exit", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    assertBuilt();
    dir = await tempDir(MODULES);
  });
  afterAll(async () => {
    await dir?.remove();
  });

  for (const isolate of [false, true]) {
    it(`exits 1 with a report naming each module${isolate ? " (isolated, the default)" : " (--no-isolate)"}`, async () => {
      const run = await runCli(
        ["validate", ...Object.keys(MODULES), "--format", "json", ...(isolate ? [] : ["--no-isolate"])],
        { cwd: dir.path, env: { TOOLDOCK_CACHE_DIR: join(dir.path, ".cache") } },
      );
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as {
        ok: boolean;
        diagnostics: Array<{ code: string; path: string; message: string }>;
        tools: Array<{ name: string }>;
      };
      expect(report.ok).toBe(false);
      expect(report.tools.map((tool) => tool.name)).toEqual(["honest_tool"]);
      const exits = report.diagnostics
        .filter((diagnostic) => diagnostic.code === "E_PROCESS_EXIT")
        .map((diagnostic) => diagnostic.message);
      expect(exits).toHaveLength(3);
      expect(exits.join("\n")).toContain("called process.reallyExit(0) while it was imported");
      expect(exits.join("\n")).toMatch(/called process\.kill\(\d+, "SIGKILL"\) while it was imported/);
      expect(exits.join("\n")).toContain("called process.abort() in its factory");
    });
  }
});
