import { describe, expect, it } from "vitest";
import { cjsValueImports, esmValueImports, relativeSpecifiers } from "./value-imports.js";

const wanted = (specifier: string) => specifier.startsWith("@mariozechner/");
const asObject = (imports: Map<string, Set<string>>) =>
  Object.fromEntries([...imports].map(([specifier, names]) => [specifier, [...names].sort()]));

describe("esmValueImports", () => {
  it("finds named, renamed, default, namespace-member and re-exported names of wanted packages", () => {
    const code = [
      'import { Text, Box as B } from "@mariozechner/pi-tui";',
      'import agent, { theme } from "@mariozechner/pi-coding-agent";',
      'import * as ai from "@mariozechner/pi-ai";',
      'export { visibleWidth, Bar as Baz } from "@mariozechner/pi-tui";',
      'export * as tui from "@mariozechner/pi-tui";',
      'import { readFile } from "node:fs";',
      "const e = ai.StringEnum([]); const t = ai . Type; const tui = {}; tui.notRead;",
    ].join("\n");
    expect(asObject(esmValueImports(code, wanted))).toEqual({
      "@mariozechner/pi-tui": ["Bar", "Box", "Text", "visibleWidth"],
      "@mariozechner/pi-coding-agent": ["default", "theme"],
      "@mariozechner/pi-ai": ["StringEnum", "Type"],
    });
  });

  // Found by review: `helper.js` in the specifier was read as the name `js` (a needless bundle).
  it("does not read a namespace's own specifier as a member read", () => {
    const code = 'import * as helper from "./helper.js";\nhelper.shout("x");\n';
    expect(asObject(esmValueImports(code, () => true))).toEqual({ "./helper.js": ["shout"] });
  });

  it("skips type-only imports and specifiers in raw TypeScript", () => {
    const code = [
      'import type { CustomTool } from "@mariozechner/pi-coding-agent";',
      'import { type Component, Text } from "@mariozechner/pi-tui";',
    ].join("\n");
    expect(asObject(esmValueImports(code, wanted))).toEqual({ "@mariozechner/pi-tui": ["Text"] });
  });
});

describe("esmValueImports on code that quotes imports", () => {
  it("ignores import statements written in strings and comments", () => {
    const code = [
      'const template = `import { Missing } from "@mariozechner/pi-tui";`;',
      '// export { AlsoMissing } from "@mariozechner/pi-tui";',
      'import { Text } from "@mariozechner/pi-tui";',
    ].join("\n");
    expect(asObject(esmValueImports(code, wanted))).toEqual({ "@mariozechner/pi-tui": ["Text"] });
  });
});

describe("cjsValueImports", () => {
  it("finds the members read from a required binding, as Babel writes them", () => {
    const code = [
      'var _piTui = require("@mariozechner/pi-tui");',
      'var ai = _interopRequireWildcard(require("@mariozechner/pi-ai"));',
      'var _fs = require("node:fs");',
      "new _piTui.Text(_piTui.Bar); ai.StringEnum; _fs.readFileSync; other_piTui.Nope;",
    ].join("\n");
    expect(asObject(cjsValueImports(code, wanted))).toEqual({
      "@mariozechner/pi-tui": ["Bar", "Text"],
      "@mariozechner/pi-ai": ["StringEnum"],
    });
  });
});

describe("relativeSpecifiers", () => {
  it("lists relative imports, requires and dynamic imports once each", () => {
    const code = `import a from "./a.js"; export * from '../b'; const c = require("./c"); await import("./a.js"); import "pkg";`;
    expect(relativeSpecifiers(code).sort()).toEqual(["../b", "./a.js", "./c"]);
  });
});
