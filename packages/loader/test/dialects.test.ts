import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CompilerName } from "../src/index.js";
import { createToolHarness, type ToolHarness } from "../src/testing/index.js";
import { fixturesDir, testCacheDir } from "./helpers.js";

/**
 * Modules written in the dialects of pi, oh-my-pi and xcsh (issue 14, items 1–4), one fixture
 * per pattern under `fixtures/dialects/<host>/`: each is loaded, its arguments validated and
 * its tool called, on both compilers, with no package of those hosts installed.
 */
const compilers: CompilerName[] = ["esbuild", "jiti"];
const dialects = join(fixturesDir, "dialects");

describe.each(compilers)("modules written for other hosts, compiler %s", (compiler) => {
  const cacheDir = testCacheDir(`dialects-${compiler}`);
  let harness: ToolHarness | undefined;
  afterEach(async () => {
    await harness?.dispose();
    harness = undefined;
  });
  const load = async (path: string) => {
    harness = await createToolHarness({ paths: join(dialects, path), cwd: fixturesDir, compiler, cacheDir });
    return harness;
  };
  const text = (result: { content: unknown[] }) =>
    result.content.map((block) => (block as { text?: string }).text ?? "").join("");
  const codes = (h: ToolHarness) => h.diagnostics.map((diagnostic) => diagnostic.code);

  it("pi: StringEnum from pi-ai and Text from pi-tui; the enum is validated and sent as a plain enum", async () => {
    const h = await load("pi/string-enum-todo");
    expect(h.diagnostics).toEqual([]);
    expect(text(await h.call("pi_todo", { action: "add", text: "milk" }))).toBe("[ ] milk");
    expect(text(await h.call("pi_todo", { action: "done", text: "milk" }))).toBe("[x] milk");
    const bad = await h.call("pi_todo", { action: "drop" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('/action: Expected one of "list", "add", "done"');
    const tool = h.tools.find((loaded) => loaded.tool.name === "pi_todo")?.tool as unknown as {
      parameters: { properties: { action: unknown } };
    };
    // The JSON Schema a model sees is the plain enum pi sends (no anyOf).
    expect(tool.parameters.properties.action).toMatchObject({
      type: "string",
      enum: ["list", "add", "done"],
    });
  });

  it("pi: Type and StringEnum both from pi-ai", async () => {
    const h = await load("pi/type-from-pi-ai.ts");
    expect(h.diagnostics).toEqual([]);
    expect(text(await h.call("pi_units", { value: 2, from: "m", to: "cm" }))).toBe("200 cm");
    expect((await h.call("pi_units", { value: 2, from: "km", to: "cm" })).isError).toBe(true);
  });

  it("pi: names the stand-ins lack are undefined, one W_HOST_EXPORT_MISSING each; type-only names are not", async () => {
    const h = await load("pi/missing-exports.ts");
    const warnings = h.diagnostics.filter((diagnostic) => diagnostic.code === "W_HOST_EXPORT_MISSING");
    expect(codes(h)).toEqual(warnings.map(() => "W_HOST_EXPORT_MISSING"));
    expect(
      warnings.map((warning) => warning.message.match(/imports "(\w+)" from "([^"]+)"/)?.slice(1)).sort(),
    ).toEqual([
      ["getEditorKeybindings", "@mariozechner/pi-tui"],
      ["getShellConfig", "@mariozechner/pi-coding-agent"],
    ]);
    expect(warnings[0]?.severity).toBe("warning");
    expect(warnings[0]?.hint).toContain("Modules written for other hosts");
    expect(text(await h.call("pi_size", { bytes: 12 }))).toBe("12 B (loader, no keys, no shell)");
  });

  it("pi: a missing name imported by a helper file (not the entry) is found too", async () => {
    const h = await load("pi/helper-imports/index.ts");
    expect(
      h.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message.match(/imports "(\w+)"/)?.[1]]),
    ).toEqual([["W_HOST_EXPORT_MISSING", "wrapTextWithAnsi"]]);
    expect(text(await h.call("pi_banner", { title: "hi" }))).toBe("== hi ==");
  });

  it("pi: a renderer built of pi-tui components and theme helpers does not crash", async () => {
    const h = await load("pi/render-components.ts");
    expect(h.diagnostics).toEqual([]);
    const result = await h.call("pi_render", { note: "a rather long note about nothing at all" });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe("note\na rather long note …");
  });

  it("oh-my-pi: pi.typebox.Type with pi.pi.StringEnum and pi.pi.Text", async () => {
    const h = await load("oh-my-pi/pi-pi-todo");
    expect(h.diagnostics).toEqual([]);
    expect(text(await h.call("omp_tags", { action: "add", tag: "x" }))).toBe("x");
    expect((await h.call("omp_tags", { action: "remove" })).isError).toBe(true);
  });

  it("oh-my-pi: its own copies of pi-ai and pi-tui", async () => {
    const h = await load("oh-my-pi/import-omp-packages.ts");
    expect(h.diagnostics).toEqual([]);
    expect(text(await h.call("omp_color", { color: "red" }))).toBe("warm");
  });

  it("oh-my-pi: parameters from pi.zod, with a default", async () => {
    const h = await load("oh-my-pi/zod-params.ts");
    expect(h.diagnostics).toEqual([]);
    expect(text(await h.call("omp_glob", { mode: "files" }))).toBe("files:**/*.ts");
    expect((await h.call("omp_glob", { mode: "links" })).isError).toBe(true);
  });

  it('oh-my-pi: a plugin whose manifest says "omp": { "tools": "tools" } (a folder)', async () => {
    const h = await load("oh-my-pi/plugin-tools-folder");
    expect(h.diagnostics).toEqual([]);
    expect(h.tools.map((loaded) => loaded.tool.name).sort()).toEqual(["omp_reverse", "omp_upper"]);
    expect(text(await h.call("omp_reverse", { text: "abc" }))).toBe("cba");
    expect(text(await h.call("omp_upper", { text: "abc" }))).toBe("ABC");
  });

  it("oh-my-pi: a plugin's features with default: true add their tools; the others do not", async () => {
    const h = await load("oh-my-pi/plugin-features");
    expect(h.diagnostics).toEqual([]);
    expect(h.tools.map((loaded) => loaded.tool.name)).toEqual(["omp_feature_base", "omp_feature_search"]);
    expect(text(await h.call("omp_feature_search", {}))).toBe("omp_feature_search");
  });

  it('oh-my-pi: a plugin of its first manifest form, "omp": { "install": [{ src, dest }] }: the agent/tools/ entries load', async () => {
    const h = await load("oh-my-pi/plugin-install-manifest");
    // Before: "0 modules, 0 tools, 0 errors" (the install list was not read).
    expect(h.tools.map((loaded) => loaded.tool.name)).toEqual(["omp_clock"]);
    expect(text(await h.call("omp_clock", {}))).toBe("0");
    expect(
      h.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message.match(/"([^"]+)"/)?.[1]]),
    ).toEqual([["W_MANIFEST_FIELD", "omp.variables"]]);
  });

  it("xcsh: pi.pi.StringEnum with a default, onUpdate and onSession", async () => {
    const h = await load("xcsh/word-count");
    expect(h.diagnostics).toEqual([]);
    expect(text(await h.call("xcsh_count", { text: "one two three", unit: "words" }))).toBe("3 words");
    expect(text(await h.call("xcsh_count", { text: "añb", unit: "chars" }))).toBe("3 chars");
  });

  it("xcsh: StringEnum, Type, Markdown and getMarkdownTheme from @f5-sales-demo/xcsh; Type.Unsafe bounds hold", async () => {
    const h = await load("xcsh/import-xcsh.ts");
    expect(h.diagnostics).toEqual([]);
    expect(text(await h.call("xcsh_level", { level: "info", limit: 2 }))).toBe("info/2");
    const bad = await h.call("xcsh_level", { level: "info", limit: 9 });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain("/limit: Must be <= 3");
  });

  it("xcsh: the @f5xc-salesdemos/xcsh package name", async () => {
    const h = await load("xcsh/f5xc-scope.ts");
    expect(h.diagnostics).toEqual([]);
    expect(text(await h.call("xcsh_region", { region: "eu" }))).toBe("region eu");
    expect((await h.call("xcsh_region", { region: "asia" })).isError).toBe(true);
  });

  it("the warnings come again when the same modules load again (warm, in one batch)", async () => {
    const first = await load("pi");
    const again = await createToolHarness({
      paths: join(dialects, "pi"),
      cwd: fixturesDir,
      compiler,
      cacheDir,
    });
    try {
      const missing = (h: ToolHarness) =>
        h.diagnostics
          .filter((diagnostic) => diagnostic.code === "W_HOST_EXPORT_MISSING")
          .map((d) => d.message);
      expect(codes(first).every((code) => code === "W_HOST_EXPORT_MISSING")).toBe(true);
      expect(missing(first)).toHaveLength(3);
      expect(missing(again)).toEqual(missing(first));
      expect(again.tools.map((loaded) => loaded.tool.name).sort()).toEqual([
        "pi_banner",
        "pi_render",
        "pi_size",
        "pi_todo",
        "pi_units",
      ]);
    } finally {
      await again.dispose();
    }
  });

  it("a schema no validator can compile is E_INVALID_SCHEMA at load time, not a failure of every call", async () => {
    const h = await load("broken/unvalidatable-schema.ts");
    expect(codes(h)).toEqual(["E_INVALID_SCHEMA"]);
    expect(h.diagnostics[0]?.message).toContain("cannot be validated");
    expect(h.tools).toEqual([]);
  });
});
