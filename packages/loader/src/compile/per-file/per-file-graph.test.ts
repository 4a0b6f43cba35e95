import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { project } from "../../../test/isolation/isolation-helpers.js";
import { ensureHostModules, getHostModule } from "../host-modules.js";
import {
  type GraphPlan,
  missingImport,
  type PerFileGraph,
  planPerFile,
  type Transform,
} from "./per-file-graph.js";
import { loadOxcTransform } from "./per-file-loader.js";

const TOOL = `import type { CustomToolAPI } from "@tooldock/sdk";
import { Type } from "@sinclair/typebox";
import { readFileSync } from "node:fs";
import { shout } from "./helper.js";
export default (pi: CustomToolAPI) => ({ name: "t", parameters: Type.Object({}), execute: () => shout(String(readFileSync)) });
`;
const HELPER = `export enum Level { Low = 1 }\nexport const shout = (text: string): string => text.toUpperCase();\n`;

async function plan(
  files: Record<string, string>,
  entry = "index.ts",
): Promise<GraphPlan & { tools: string }> {
  const where = await project(files);
  const transform = (await loadOxcTransform()) as Transform;
  return { ...(await planPerFile(join(where.tools, entry), transform)), tools: where.tools };
}

function graphOf(planned: GraphPlan): PerFileGraph {
  if (!("graph" in planned)) throw new Error(`bundled: ${planned.bundle}`);
  return planned.graph;
}

describe("planPerFile: the graph a cold load compiles file by file", () => {
  it("follows relative imports (`.js` names the `.ts` file), links host modules and leaves built-ins to Node", async () => {
    const planned = await plan({ "index.ts": TOOL, "helper.ts": HELPER });
    const graph = graphOf(planned);
    expect([...graph.files.keys()]).toEqual([
      join(planned.tools, "index.ts"),
      join(planned.tools, "helper.ts"),
    ]);
    const links = graph.files.get(join(planned.tools, "index.ts"))?.links;
    expect(Object.fromEntries(links ?? [])).toEqual({
      "@sinclair/typebox": { kind: "host", specifier: "@sinclair/typebox" },
      "node:fs": { kind: "native" },
      "./helper.js": { kind: "file", path: join(planned.tools, "helper.ts") },
    });
    expect([...graph.hostSpecifiers]).toEqual(["@sinclair/typebox"]);
    // Types are gone, the enum is code.
    expect(graph.files.get(join(planned.tools, "helper.ts"))?.code).toMatch(/Level\[Level\["Low"\] = 1\]/);
  });

  it.each([
    [
      "a file that does not compile",
      { "index.ts": "export default (: ) => 1;\n" },
      /index\.ts does not compile/,
    ],
    ["an import that resolves to no file", { "index.ts": 'import "./gone.js";\n' }, /imports \.\/gone\.js/],
    [
      "a JSON import",
      { "index.ts": 'import data from "./data.json";\nexport default data;\n', "data.json": "{}" },
      /data\.json/,
    ],
    ["a `.cts` helper", { "index.ts": 'import "./old.cts";\n', "old.cts": "export {};\n" }, /old\.cts/],
    [
      "a helper in CommonJS",
      { "index.ts": 'import "./old.js";\n', "old.ts": "module.exports = { a: 1 };\n" },
      /old\.ts may be CommonJS/,
    ],
    ["a `require`", { "index.ts": 'const fs = require("node:fs");\n' }, /may be CommonJS/],
    ["a decorator on its own line", { "index.ts": "export class A {\n  @log\n  m() {}\n}\n" }, /decorators/],
    ["a decorator inline", { "index.ts": "export class A { @log m() {} }\n" }, /decorators/],
    [
      "a parameter decorator",
      { "index.ts": "export class A { constructor(@inject(T) private db: unknown) {} }\n" },
      /decorators/,
    ],
    ["an `accessor` field", { "index.ts": "export class A { accessor v = 1; }\n" }, /accessors/],
    [
      "`using`, which oxc lowers to an import of its runtime helpers",
      { "index.ts": "export function f() { using x = null; return x; }\n" },
      /@oxc-project\/runtime/,
    ],
    ["a computed import", { "index.ts": "export const m = (name: string) => import(name);\n" }, /computed/],
    [
      "a stand-in package (its missing names are the bundle's to report)",
      { "index.ts": 'import { Text } from "@mariozechner/pi-tui";\nexport default Text;\n' },
      /pi-tui/,
    ],
    ["a package that is not installed", { "index.ts": 'import "left-pad-not-installed";\n' }, /left-pad/],
    [
      "a subpath of a package without `exports` (Node does not try extensions there)",
      {
        "index.ts": 'import debounce from "legacy-lib/debounce";\nexport default debounce;\n',
        "node_modules/legacy-lib/package.json": '{ "name": "legacy-lib" }',
        "node_modules/legacy-lib/debounce.js": "module.exports = () => {};\n",
      },
      /legacy-lib\/debounce/,
    ],
    [
      "a package whose `exports` do not name what is imported",
      {
        "index.ts": 'import x from "narrow-lib";\nexport default x;\n',
        "node_modules/narrow-lib/package.json": '{ "name": "narrow-lib", "exports": { "./x": "./x.js" } }',
      },
      /narrow-lib/,
    ],
    [
      "a TSX file, found first as the bundler finds it",
      {
        "index.ts": 'import "./view";\n',
        "view.tsx": "export const v = <b />;\n",
        "view.ts": "export {};\n",
      },
      /imports \.\/view,/,
    ],
    [
      "an extensionless import of a `.mts` file (the bundler does not try it)",
      { "index.ts": 'import "./util";\n', "util.mts": "export {};\n" },
      /imports \.\/util,/,
    ],
    [
      "a tsconfig that cannot be resolved",
      { "index.ts": "export {};\n", "tsconfig.json": '{ "extends": "./missing-base.json" }' },
      /tsconfig\.json cannot be resolved/,
    ],
    ["a jsconfig.json", { "index.ts": "export {};\n", "jsconfig.json": "{}" }, /jsconfig/],
    // Found by review: CommonJS the pattern missed, run file by file as an ES module, failed.
    ...[
      'module["exports"] = { a: 1 };',
      'exports["a"] = 1;',
      "this.a = 1;",
      'Object.defineProperty(exports, "__esModule", { value: true });',
    ].map((helper): [string, Record<string, string>, RegExp] => [
      `a CommonJS helper written \`${helper}\``,
      { "index.ts": 'import * as lib from "./lib.js";\nexport default lib;\n', "lib.js": `${helper}\n` },
      /lib\.js may be CommonJS/,
    ]),
    // Found by review: decorators and accessors the pattern missed, a syntax error in V8.
    ["a decorator called in parentheses", { "index.ts": "export class A { @(log) m() {} }\n" }, /decorators/],
    [
      "an `accessor` with a quoted name",
      { "index.ts": 'export class A { accessor "x" = 1; }\n' },
      /accessors/,
    ],
    [
      "a decorator between two strings that look like a comment's ends",
      {
        "index.ts":
          'export const include = "src/*";\nexport class A { @log m() { return 5; } }\nexport const exclude = "**/node_modules";\n',
      },
      /decorators/,
    ],
    // Found by review: the bundle gives the pack's `import.meta`, file by file gave the source's.
    [
      "`import.meta.resolve`",
      { "index.ts": 'export const where = () => import.meta.resolve("./helper.js");\n' },
      /reads import\.meta/,
    ],
    [
      "a bare `import.meta`",
      { "index.ts": "const meta = import.meta;\nexport default meta;\n" },
      /import\.meta/,
    ],
    // Found by review: package `exports` whose conditions esbuild and Node read differently.
    ...[
      ["`module` before `default`", { ".": { module: "./esm.mjs", default: "./cjs.cjs" } }, "cond-lib"],
      [
        "`module-sync` before `default`",
        { ".": { "module-sync": "./a.mjs", default: "./b.cjs" } },
        "cond-lib",
      ],
      ["no condition either reads", { ".": { browser: "./x.js" } }, "cond-lib"],
      ["a `null` target", { ".": "./index.js", "./private/*": null }, "cond-lib/private/x"],
    ].map(([what, exports, specifier]): [string, Record<string, string>, RegExp] => [
      `a package whose \`exports\` have ${what}`,
      {
        "index.ts": `import lib from "${specifier}";\nexport default lib;\n`,
        "node_modules/cond-lib/package.json": JSON.stringify({ name: "cond-lib", exports }),
      },
      new RegExp(`imports ${specifier}, which must be bundled`),
    ]),
    // Found by review: a `paths` alias passed over a candidate the bundle takes.
    [
      "a `paths` alias whose first candidate found is JSON",
      {
        "tsconfig.json": JSON.stringify({
          compilerOptions: { paths: { "@app/*": ["./src/*", "./fallback/*"] } },
        }),
        "index.ts": 'import { x } from "@app/util";\nexport default x;\n',
        "src/util.json": '{ "x": "json" }',
        "fallback/util.ts": 'export const x = "fallback";\n',
      },
      /@app\/util/,
    ],
  ])("leaves %s to the bundle", async (_case, files, reason) => {
    const planned = await plan(files);
    expect("bundle" in planned ? planned.bundle : "compiled file by file").toMatch(reason);
  });

  it("gives a file its own location as the bundle does: `import.meta.url` as a literal, `__dirname` declared", async () => {
    const planned = await plan({
      "index.ts": "export const here = [import.meta.url, __dirname, __filename];\n",
    });
    const code = graphOf(planned).files.get(join(planned.tools, "index.ts"))?.code ?? "";
    expect(code).toContain(JSON.stringify(`file://${join(planned.tools, "index.ts")}`));
    expect(code).toMatch(/var __dirname = .*, __filename = /);
  });

  it("does not take JSDoc tags, scoped packages, an e-mail address or oxc's annotations for decorators", async () => {
    const planned = await plan({
      "index.ts": `/**\n * A tool.\n * @param pi the API\n */\nimport { Type } from "@sinclair/typebox";\nexport const mail = "a@b.c";\nexport const at = (user: string, host: string) => \`\${user}@\${host}\`;\nexport enum Level { Low = 1 }\nexport default Type;\n`,
    });
    expect("graph" in planned ? "compiled file by file" : planned.bundle).toBe("compiled file by file");
  });

  it("links a package it can leave to Node: its root, and a subpath its `exports` name", async () => {
    const planned = await plan({
      "index.ts":
        'import a from "modern-lib";\nimport b from "modern-lib/extra";\nimport c from "modern-lib/features/c";\nexport default [a, b, c];\n',
      "node_modules/modern-lib/package.json": JSON.stringify({
        name: "modern-lib",
        type: "module",
        exports: { ".": "./index.js", "./extra": "./extra.js", "./features/*": "./features/*.js" },
      }),
      "node_modules/modern-lib/index.js": "export default 1;\n",
      "node_modules/modern-lib/extra.js": "export default 2;\n",
    });
    const links = graphOf(planned).files.get(join(planned.tools, "index.ts"))?.links;
    expect(Object.fromEntries(links ?? [])).toEqual({
      "modern-lib": { kind: "native" },
      "modern-lib/extra": { kind: "native" },
      "modern-lib/features/c": { kind: "native" },
    });
  });

  it("gives one module to a helper reached through a symlink and through its own path", async () => {
    const where = await project({
      "index.ts":
        'import { a } from "./lib/helper.js";\nimport { b } from "./linked/helper.js";\nexport default [a, b];\n',
      "lib/helper.ts": "export const a = 1;\nexport const b = 2;\n",
    });
    await symlink(join(where.tools, "lib"), join(where.tools, "linked"));
    const transform = (await loadOxcTransform()) as Transform;
    const graph = graphOf(await planPerFile(join(where.tools, "index.ts"), transform));
    expect([...graph.files.keys()]).toEqual([
      join(where.tools, "index.ts"),
      join(where.tools, "lib/helper.ts"),
    ]);
  });

  // The folder's listing says "link" for a linked file: its real path is the target's.
  it("gives one module to a helper file that is itself a symlink, as the bundle does", async () => {
    const where = await project({
      "index.ts":
        'import { a } from "./helper.js";\nimport { b } from "./lib/helper.js";\nexport default [a, b];\n',
      "lib/helper.ts": "export const a = 1;\nexport const b = 2;\n",
    });
    await symlink(join(where.tools, "lib/helper.ts"), join(where.tools, "helper.ts"));
    const transform = (await loadOxcTransform()) as Transform;
    const graph = graphOf(await planPerFile(join(where.tools, "index.ts"), transform));
    expect([...graph.files.keys()]).toEqual([
      join(where.tools, "index.ts"),
      join(where.tools, "lib/helper.ts"),
    ]);
  });

  // Found by review: `./lib/` took `lib.ts`, where the bundle takes `lib/index.ts`.
  it("resolves a specifier that names a folder (`./lib/`) to its index only, as the bundler does", async () => {
    const planned = await plan({
      "index.ts": 'import { who } from "./lib/";\nexport default who;\n',
      "lib.ts": 'export const who = "file";\n',
      "lib/index.ts": 'export const who = "folder";\n',
    });
    const links = graphOf(planned).files.get(join(planned.tools, "index.ts"))?.links;
    expect(links?.get("./lib/")).toEqual({ kind: "file", path: join(planned.tools, "lib/index.ts") });
  });

  it("links a package whose `exports` conditions lead esbuild and Node to the same file", async () => {
    const planned = await plan({
      "index.ts": 'import lib from "same-lib";\nexport default lib;\n',
      "node_modules/same-lib/package.json": JSON.stringify({
        name: "same-lib",
        exports: { ".": { types: "./index.d.ts", import: "./index.mjs", default: "./index.cjs" } },
      }),
      "node_modules/same-lib/index.mjs": "export default 1;\n",
    });
    const links = graphOf(planned).files.get(join(planned.tools, "index.ts"))?.links;
    expect(links?.get("same-lib")).toEqual({ kind: "native" });
  });

  it("follows a tsconfig `paths` alias to the tool's own file, as the bundler does", async () => {
    const planned = await plan({
      "tsconfig.json": JSON.stringify({ compilerOptions: { paths: { "#shared/*": ["./shared/*"] } } }),
      "index.ts": 'import { shout } from "#shared/text";\nexport default shout;\n',
      "shared/text.ts": HELPER,
    });
    const links = graphOf(planned).files.get(join(planned.tools, "index.ts"))?.links;
    expect(links?.get("#shared/text")).toEqual({ kind: "file", path: join(planned.tools, "shared/text.ts") });
  });

  it("keeps what the tsconfig keeps: imports under verbatimModuleSyntax, fields under useDefineForClassFields", async () => {
    const source = 'import { shout } from "./helper.js";\nexport class A { x: number; y = shout("y"); }\n';
    const plain = graphOf(await plan({ "index.ts": source, "helper.ts": HELPER }));
    const strict = await plan({
      "tsconfig.json": JSON.stringify({
        compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: false },
      }),
      "index.ts": 'import { Level } from "./helper.js";\nexport class A { x: number; level?: Level; }\n',
      "helper.ts": HELPER,
    });
    const plainCode = [...plain.files.values()][0]?.code ?? "";
    expect(plainCode).toMatch(/^\s*x;$/m); // a field defined (as `undefined`)
    const strictCode = [...graphOf(strict).files.values()][0]?.code ?? "";
    expect(strictCode).toMatch(/import \{ Level \} from "\.\/helper\.js"/); // kept: not marked `type`
    expect(strictCode).not.toMatch(/^\s*x;$/m); // no field without an initializer
    // A target before ES2022 without the option: assigned fields, as esbuild decides.
    const older = await plan({
      "tsconfig.json": JSON.stringify({ compilerOptions: { target: "ES2020" } }),
      "index.ts": "export class A { x: number; }\n",
    });
    expect([...graphOf(older).files.values()][0]?.code).not.toMatch(/^\s*x;$/m);
  });
});

describe("missingImport: an import its target does not export, as the bundler fails on it", () => {
  const hostExports = (specifier: string) => new Set(Object.keys(getHostModule(specifier)));

  it("names the import of a name the helper does not export, and of one a host module lacks", async () => {
    await ensureHostModules(["@sinclair/typebox"]);
    const ok = graphOf(await plan({ "index.ts": TOOL, "helper.ts": HELPER }));
    expect(missingImport(ok, hostExports)).toBeUndefined();
    const helper = await plan({
      "index.ts": 'import { whisper } from "./helper.js";\nwhisper;\n',
      "helper.ts": HELPER,
    });
    expect(missingImport(graphOf(helper), hostExports)).toMatch(/imports whisper from \.\/helper\.js/);
    const host = await plan({ "index.ts": 'import { Typo } from "@sinclair/typebox";\nTypo;\n' });
    expect(missingImport(graphOf(host), hostExports)).toMatch(/imports Typo from @sinclair\/typebox/);
  });

  it("follows `export *` through the tool's files, and trusts one from a package", async () => {
    await ensureHostModules(["@sinclair/typebox"]);
    const through = await plan({
      "index.ts": 'import { shout } from "./all.js";\nshout;\n',
      "all.ts": 'export * from "./helper.js";\n',
      "helper.ts": HELPER,
    });
    expect(missingImport(graphOf(through), hostExports)).toBeUndefined();
    const missing = await plan({
      "index.ts": 'import { nope } from "./all.js";\nnope;\n',
      "all.ts": 'export * from "./helper.js";\n',
      "helper.ts": HELPER,
    });
    expect(missingImport(graphOf(missing), hostExports)).toMatch(/imports nope from \.\/all\.js/);
    // Found by review: a name two `export *` give is ambiguous (the bundler says where).
    const ambiguous = await plan({
      "index.ts": 'import { x } from "./all.js";\nx;\n',
      "all.ts": 'export * from "./a.js";\nexport * from "./b.js";\n',
      "a.ts": 'export const x = "a";\n',
      "b.ts": 'export const x = "b";\n',
    });
    expect(missingImport(graphOf(ambiguous), hostExports)).toMatch(/imports x from \.\/all\.js, which two/);
    const diamond = await plan({
      "index.ts": 'import { shout } from "./all.js";\nshout;\n',
      "all.ts": 'export * from "./left.js";\nexport * from "./right.js";\n',
      "left.ts": 'export * from "./helper.js";\n',
      "right.ts": 'export * from "./helper.js";\n',
      "helper.ts": HELPER,
    });
    expect(missingImport(graphOf(diamond), hostExports)).toBeUndefined();
    const builtin = await plan({
      "index.ts": 'import { readFileSync } from "./fs.js";\nreadFileSync;\n',
      "fs.ts": 'export * from "node:fs";\n',
    });
    expect(missingImport(graphOf(builtin), hostExports)).toBeUndefined();
  });
});
