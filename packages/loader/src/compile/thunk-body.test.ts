import { beforeAll, describe, expect, it } from "vitest";
import { builtinAlias, loadThunkLexer, type ThunkBody, toThunkBody } from "./thunk-body.js";

const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => () => Promise<unknown>;

/** Runs a thunk body the way a pack does: each built-in's namespace under its alias. */
async function run(thunk: ThunkBody): Promise<Record<string, unknown>> {
  const namespaces = await Promise.all(thunk.builtins.map((specifier) => import(specifier)));
  const body = new AsyncFunction(...thunk.builtins.map(builtinAlias), `${thunk.header}\n${thunk.body}`) as (
    ...args: unknown[]
  ) => Promise<Record<string, unknown>>;
  return body(...namespaces);
}

function convert(code: string): ThunkBody {
  const thunk = toThunkBody(code);
  if (thunk === undefined) throw new Error("expected the bundle to be packable");
  return thunk;
}

beforeAll(() => loadThunkLexer());

describe("toThunkBody", () => {
  it("turns imports of built-ins and the export clause into reads and a return", async () => {
    const thunk = convert(
      [
        'import { createRequire as makeRequire } from "node:module"; var localRequire = makeRequire("/x/index.ts");',
        'import path, { join as joinPath, "sep" as separator } from "node:path";',
        'import * as os from "node:os";',
        'import "node:fs";',
        "var factory = () => [joinPath('a', 'b'), path.basename('/q/r'), typeof os.cpus, separator, typeof localRequire];",
        "var other = 1;",
        "export {",
        "  factory as default,",
        "  other",
        "};",
        "//# sourceMappingURL=../maps/abc.mjs.map",
        "",
      ].join("\n"),
    );
    expect(thunk.builtins.sort()).toEqual(["node:fs", "node:module", "node:os", "node:path"]);
    const namespace = await run(thunk);
    expect(Object.keys(namespace)).toEqual(["default", "other"]);
    expect((namespace.default as () => unknown[])()).toEqual(["a/b", "r", "function", "/", "function"]);
    expect(namespace.other).toBe(1);
    expect(thunk.body).not.toContain("sourceMappingURL");
  });

  it("checks each named import as ES module linking does, before any code runs", async () => {
    const thunk = convert(
      'globalThis.__thunkRan = true;\nimport { notAnExport } from "node:path";\nvar used = notAnExport;\nexport { used };\n',
    );
    await expect(run(thunk)).rejects.toThrow(
      new SyntaxError("The requested module 'node:path' does not provide an export named 'notAnExport'"),
    );
    expect((globalThis as { __thunkRan?: boolean }).__thunkRan).toBeUndefined();
  });

  it("keeps every line where it was, so the bundle's source map still applies", () => {
    const code = [
      'import {\n  readFileSync,\n  statSync\n} from "node:fs";',
      "var marker = [readFileSync, statSync];",
      "export {\n  marker\n};",
      "",
    ].join("\n");
    const thunk = convert(code);
    expect(thunk.body.split("\n").length).toBe(code.split("\n").length);
    expect(thunk.body.split("\n").indexOf("var marker = [readFileSync, statSync];")).toBe(4);
  });

  it("runs top-level await, and returns an empty namespace for a bundle without exports", async () => {
    const thunk = convert("globalThis.__thunkProbe = await Promise.resolve(7);\n");
    expect(await run(thunk)).toEqual({});
    expect((globalThis as { __thunkProbe?: number }).__thunkProbe).toBe(7);
  });

  it("reads exports when asked, so a binding assigned later is seen", async () => {
    const namespace = await run(convert("var value = 1;\nvalue = 2;\nexport {\n  value\n};\n"));
    expect(namespace.value).toBe(2);
  });

  it("keeps a hashbang line as a comment", async () => {
    const thunk = convert("#!/usr/bin/env node\nvar a = 3;\nexport {\n  a\n};\n");
    expect(thunk.body.startsWith("///usr/bin/env node\n")).toBe(true);
    expect((await run(thunk)).a).toBe(3);
  });

  it.each([
    [
      "a package import (its top level would run outside the module's guard)",
      'import x from "file:///p/x.js";\nexport { x };\n',
    ],
    ["import.meta", "var url = import.meta.resolve('x');\nexport { url };\n"],
    ["a re-export", 'export * from "node:fs";\n'],
    ["a named re-export", 'export { readFileSync } from "node:fs";\n'],
    ["an import with attributes", 'import data from "node:fs" with { type: "json" };\nexport { data };\n'],
    ["an export clause that is not last", "var a = 1;\nexport { a };\nvar b = 2;\n"],
    ["code the lexer cannot read", "export { a as };\n"],
  ])("leaves a bundle with %s to be imported on its own", (_case, code) => {
    expect(toThunkBody(code)).toBeUndefined();
  });
});
