import { join } from "node:path";
import type { UIContext } from "@tooldock/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { CompilerName } from "../src/index.js";
import { createToolHarness, type ToolHarness } from "../src/testing/index.js";
import { fixturesDir, testCacheDir } from "./helpers.js";

/**
 * opencode custom tools (issue 26, item 5): files in `.opencode/tool/` and `.opencode/tools/`
 * that export `tool({ description, args, execute })` definitions. Our own fixtures under
 * `fixtures/dialects/opencode/`, each loaded and called on both compilers, in process and in a
 * tool host.
 */
const compilers: CompilerName[] = ["esbuild", "jiti"];
const modes = ["none", "process"] as const;
const opencode = join(fixturesDir, "dialects", "opencode");
const project = join(opencode, "project");

const text = (result: { content: unknown[] }) =>
  result.content.map((block) => (block as { text?: string }).text ?? "").join("");

describe.each(compilers.flatMap((compiler) => modes.map((mode) => [compiler, mode] as const)))(
  "opencode tools, compiler %s, isolation %s",
  (compiler, isolation) => {
    const cacheDir = testCacheDir(`opencode-${compiler}-${isolation}`);
    let harness: ToolHarness | undefined;
    afterEach(async () => {
      await harness?.dispose();
      harness = undefined;
    });
    const load = async (paths: string, options: { ui?: UIContext; opencode?: boolean } = {}) => {
      harness = await createToolHarness({
        paths,
        cwd: project,
        compiler,
        cacheDir,
        isolation,
        opencode: options.opencode ?? true,
        ui: options.ui,
      });
      return harness;
    };

    it("a project root gives the tools of .opencode/tool and .opencode/tools, named as opencode names them, and nothing else", async () => {
      const h = await load(project);
      expect(h.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      expect(h.tools.map((loaded) => loaded.tool.name).sort()).toEqual([
        "deploy",
        "legacy",
        "math_sum",
        "math_times",
        "shell",
        "where",
      ]);
      expect(text(await h.call("math_sum", { values: [1, 2, 3.5] }))).toBe("6.5");
      expect(text(await h.call("math_times", { a: 6, b: 7 }))).toBe("6 × 7 = 42");
      const invalid = await h.call("math_sum", { values: [] });
      expect(invalid.isError).toBe(true);
      expect(text(await h.call("legacy", { word: "hey", times: 2 }))).toBe("hey hey");
      expect((await h.call("legacy", { word: "hey" })).isError).toBe(true);
    });

    it("execute gets opencode's context; a result object gives its output, title and metadata", async () => {
      const h = await load(join(project, ".opencode", "tool", "where.ts"));
      expect(h.diagnostics).toEqual([]);
      const result = await h.call("where", {});
      // The git worktree around the working folder; a tool host sees only the folders it may read.
      const worktree = isolation === "none" ? repositoryRoot : project;
      expect(text(result)).toMatch(
        new RegExp(
          `^at ${project} \\(worktree ${worktree}, session ${h.session.id}, call harness-call-\\d+, aborted false\\)$`,
        ),
      );
      expect(result.details).toEqual({ title: "[where]", metadata: { agent: "tooldock" } });
    });

    it("context.ask asks the host's UI, and is denied without one", async () => {
      const asked: string[] = [];
      const ui: UIContext = {
        select: async () => undefined,
        confirm: async (title, message) => {
          asked.push(`${title} ${message}`);
          return message === "staging";
        },
        input: async () => undefined,
        notify: () => {},
      };
      const withUI = await load(join(project, ".opencode", "tools"), { ui });
      expect(text(await withUI.call("deploy", { target: "staging" }))).toBe("deployed to staging");
      const denied = await withUI.call("deploy", { target: "production" });
      expect(denied.isError).toBe(true);
      expect(text(denied)).toContain('The user denied permission "deploy" for production.');
      expect(asked).toEqual(["Allow deploy? staging", "Allow deploy? production"]);
      await withUI.dispose();
      harness = undefined;
      const headless = await load(join(project, ".opencode", "tools"));
      const refused = await headless.call("deploy", { target: "staging" });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain("this host has no user interface to ask: denied");
    });

    it("Bun's global: a warning at load, and a call that says why it fails", async () => {
      const h = await load(join(project, ".opencode", "tools", "shell.ts"));
      expect(h.diagnostics.map((d) => [d.code, d.severity])).toEqual([["W_BUN_API", "warning"]]);
      expect(h.diagnostics[0]?.message).toContain("uses Bun.$, which only the Bun runtime has");
      const result = await h.call("shell", {});
      expect(result.isError).toBe(true);
      expect(text(result)).toContain("Bun is not defined: this tool uses an API of the Bun runtime");
    });

    it("bun:sqlite: the module is reported, naming Bun, and the host goes on", async () => {
      const h = await load(join(opencode, "bun-only"));
      expect(h.tools).toEqual([]);
      expect(h.diagnostics).toHaveLength(1);
      expect(h.diagnostics[0]?.severity).toBe("error");
      expect(h.diagnostics[0]?.message).toContain('"bun:sqlite" is a module of the Bun runtime');
    });

    it("without opencode on, a tool file is E_NO_FACTORY that names the option", async () => {
      const file = await load(join(project, ".opencode", "tool", "math.ts"), { opencode: false });
      expect(file.diagnostics.map((d) => d.code)).toEqual(["E_NO_FACTORY"]);
      expect(file.diagnostics[0]?.message).toContain(
        "exports opencode tools (sum, times), and loading them is off",
      );
      expect(file.diagnostics[0]?.hint).toContain("opencode: true");
    });
  },
);

/** The fixtures live in this repository: its root holds `.git`. */
const repositoryRoot = join(fixturesDir, "..", "..", "..", "..");
