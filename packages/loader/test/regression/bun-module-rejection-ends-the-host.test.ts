// Found loading the broken-module set on Bun: the rejection guard wraps `process.emit`, the
// call Node makes for every unhandled rejection, and reads the module from its async context.
// Bun calls the `unhandledRejection` listeners without `process.emit` and outside that
// context, so a module that left a promise rejected while it loaded was no
// W_UNHANDLED_REJECTION: Bun printed the error and ended the host with code 1
// (`tooldock list` printed "0 errors, 0 warnings" and exited 1).
import { execFile } from "node:child_process";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { testRuntime } from "../../../../scripts/runtimes.mjs";
import { builtEntry, goodModule } from "../helpers.js";

const TOOL = (name: string) =>
  `{ name: "${name}", label: "L", description: "d", parameters: pi.typebox.Type.Object({}), execute: async () => ({ content: [] }) }`;

const MODULES: Record<string, string> = {
  "in-factory.mjs": `export default (pi) => { Promise.reject(new Error("left in the factory")); return ${TOOL("in_factory")}; };\n`,
  "from-a-timer.mjs": `export default (pi) => { setTimeout(() => Promise.reject(new Error("left by a timer")), 0); return ${TOOL("from_timer")}; };\n`,
  "at-import.mjs": `Promise.reject(new Error("left at import"));\nexport default (pi) => (${TOOL("at_import")});\n`,
  "zz-canary.mjs": goodModule("canary"),
};

describe("a module that leaves a promise rejected while it loads, on Bun", () => {
  it("is a W_UNHANDLED_REJECTION on that module, and the host goes on", async (context) => {
    const bun = await testRuntime("bun@1.4", context.skip);
    const root = await realpath(await mkdtemp(join(tmpdir(), "tooldock-bun-rejection-")));
    try {
      const tools = join(root, "tools");
      await import("node:fs/promises").then((fs) => fs.mkdir(tools));
      for (const [name, source] of Object.entries(MODULES)) await writeFile(join(tools, name), source);
      const script = join(root, "host.mjs");
      await writeFile(
        script,
        `import { loadCustomTools } from ${JSON.stringify(builtEntry("loader"))};
const loaded = await loadCustomTools({ paths: [${JSON.stringify(tools)}], cwd: ${JSON.stringify(root)},
  cacheDir: ${JSON.stringify(join(root, "cache"))} });
await new Promise((resolve) => setImmediate(resolve));
console.log(JSON.stringify({ bun: typeof Bun, tools: loaded.tools.map((entry) => entry.tool.name),
  diagnostics: loaded.diagnostics.map((d) => ({ file: d.path.split("/").at(-1), code: d.code, message: d.message })) }));
`,
      );
      const run = await promisify(execFile)(bun, [script], { encoding: "utf8" }).catch(
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(run.stderr).toBe("");
      const report = JSON.parse(run.stdout) as {
        bun: string;
        tools: string[];
        diagnostics: Array<{ file: string; code: string; message: string }>;
      };
      expect(report.bun).toBe("object");
      expect(report.tools).toEqual(["at_import", "from_timer", "in_factory", "canary"]);
      expect(new Set(report.diagnostics.map(({ code }) => code))).toEqual(new Set(["W_UNHANDLED_REJECTION"]));
      // Named by the module file in the reason's stack.
      const named = (file: string) =>
        report.diagnostics.find((diagnostic) => diagnostic.file === file)?.message;
      expect(named("in-factory.mjs")).toMatch(/left in the factory/);
      expect(named("from-a-timer.mjs")).toMatch(/left by a timer|and 1 more/);
      // Reported at the end of the turn its module loaded in: on that module or one loaded with it.
      expect(report.diagnostics.map(({ message }) => message).join("\n")).toMatch(/left at import/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
