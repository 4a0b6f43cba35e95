/**
 * Finds the names a module's code reads from given packages, without running it. Used on code
 * a compiler already transformed, so type-only imports are gone exactly as that compiler
 * drops them: esbuild's ES module output ({@link esmValueImports}) or jiti's CommonJS output
 * ({@link cjsValueImports}).
 */

/** Names read from each package, by the specifier as written. */
export type ValueImports = Map<string, Set<string>>;

const IDENTIFIER = "[A-Za-z_$][\\w$]*";
const STATEMENT = /\b(import|export)\s+(type\s+)?([^;]*?)\s*\bfrom\s*(["'])([^"'\n]+)\4/g;

function add(imports: ValueImports, specifier: string, name: string): void {
  let names = imports.get(specifier);
  if (names === undefined) {
    names = new Set();
    imports.set(specifier, names);
  }
  names.add(name);
}

function memberReads(code: string, binding: string): string[] {
  const escaped = binding.replace(/\$/g, "\\$");
  const pattern = new RegExp(`(?<![\\w$.])${escaped}\\s*\\.\\s*(${IDENTIFIER})`, "g");
  return [...code.matchAll(pattern)].map((match) => match[1] as string);
}

/**
 * `import { a, b as c }`, `import d`, `import * as ns` (then every `ns.x` read) and
 * `export { a } from` of the packages `wanted` accepts. `import type` and `type x` specifiers
 * are skipped, so raw TypeScript can be scanned too (less precisely: an import used only as
 * a type, without the `type` keyword, counts).
 */
export function esmValueImports(code: string, wanted: (specifier: string) => boolean): ValueImports {
  const imports: ValueImports = new Map();
  for (const match of code.matchAll(STATEMENT)) {
    const [, keyword, typeOnly, clause = "", , specifier = ""] = match;
    if (typeOnly !== undefined || !wanted(specifier)) continue;
    const braces = /\{([^}]*)\}/.exec(clause);
    for (const part of braces?.[1]?.split(",") ?? []) {
      const words = part.trim().split(/\s+/);
      if (words[0] === "" || words[0] === undefined || words[0] === "type") continue;
      add(imports, specifier, words[0].replace(/^["']|["']$/g, ""));
    }
    if (keyword !== "import") continue;
    const outside = clause.replace(/\{[^}]*\}/, "");
    const namespace = new RegExp(`\\*\\s*as\\s+(${IDENTIFIER})`).exec(outside)?.[1];
    if (namespace !== undefined)
      for (const name of memberReads(code, namespace)) add(imports, specifier, name);
    const defaultName = new RegExp(`^\\s*(${IDENTIFIER})\\s*(?:,|$)`).exec(outside)?.[1];
    if (defaultName !== undefined) add(imports, specifier, "default");
  }
  return imports;
}

const REQUIRE = new RegExp(
  `\\b(?:var|let|const)\\s+(${IDENTIFIER})\\s*=\\s*(?:(${IDENTIFIER})\\()?require\\((["'])([^"'\\n]+)\\3\\)`,
  "g",
);

/**
 * In CommonJS as Babel (jiti) writes it: `var _x = require("pkg")` (or wrapped in an interop
 * helper), then every `_x.name` read.
 */
export function cjsValueImports(code: string, wanted: (specifier: string) => boolean): ValueImports {
  const imports: ValueImports = new Map();
  for (const match of code.matchAll(REQUIRE)) {
    const [, binding = "", , , specifier = ""] = match;
    if (!wanted(specifier)) continue;
    for (const name of memberReads(code, binding)) add(imports, specifier, name);
  }
  return imports;
}

/** Relative specifiers a source imports or requires (`./helpers.js`, `../shared`). */
export function relativeSpecifiers(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(["'])(\.{1,2}\/[^"'\n]*)\1/g,
  )) {
    found.add(match[2] as string);
  }
  return [...found];
}
