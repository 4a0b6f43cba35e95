/**
 * Finds the names a module's code reads from given packages, without running it, in a
 * compiler's output (type-only imports gone as that compiler drops them): esbuild's or jiti's.
 */

import { parse } from "es-module-lexer";
import { orElse } from "../../discover/expand-path.js";
import { remembered } from "../../remembered.js";

/** Names read from each package, by the specifier as written. */
export type ValueImports = Map<string, Set<string>>;

const IDENTIFIER = "[A-Za-z_$][\\w$]*";

function add(imports: ValueImports, specifier: string, name: string): void {
  remembered(imports, specifier, () => new Set()).add(name);
}

/**
 * Every `binding.name` read in `code`: not after a name, a dot, a slash, a dash or a quote, so a
 * specifier such as `"./helper.js"` is no read of `helper.js`.
 */
function memberReads(code: string, binding: string): string[] {
  const escaped = binding.replace(/\$/g, "\\$");
  const pattern = new RegExp(`(?<![\\w$./"'\`-])${escaped}\\s*\\.\\s*(${IDENTIFIER})`, "g");
  return [...code.matchAll(pattern)].map((match) => match[1] as string);
}

/**
 * `import { a, b as c }`, `import d`, `import * as ns` (then every `ns.x` read) and `export { a }
 * from` of the packages `wanted` accepts, as es-module-lexer finds them. Type-only ones are
 * skipped, so raw TypeScript can be scanned too (an unmarked type-only import counts).
 */
export function esmValueImports(
  code: string,
  wanted: (specifier: string) => boolean,
  /** `parse(code)`, when the caller has it. */
  parsed?: ReturnType<typeof parse>,
): ValueImports {
  const imports: ValueImports = new Map();
  // Code that does not parse is no module esbuild can build either: it reports the syntax error.
  const lexed = parsed ?? orElse<ReturnType<typeof parse>>(() => parse(code), [[], [], false, false]);
  for (const entry of lexed[0]) {
    // Import statements only: an `export … from` is a reexport, read below.
    if (entry.type !== "static" || entry.typeOnly || !code.startsWith("import", entry.importStart)) continue;
    if (!wanted(entry.specifier)) continue;
    // The bindings between `import` and `from`.
    const clause = code
      .slice(entry.importStart + "import".length, entry.start - 1)
      .replace(/\s*from\s*$/, "");
    for (const part of /\{([^}]*)\}/.exec(clause)?.[1]?.split(",") ?? []) {
      const [name = "", ...alias] = part.trim().split(/\s+/);
      if (name !== "" && !(name === "type" && alias.length > 0))
        add(imports, entry.specifier, name.replace(/^["']|["']$/g, ""));
    }
    const namespace = new RegExp(`\\*\\s*as\\s+(${IDENTIFIER})`).exec(clause)?.[1];
    for (const name of namespace === undefined ? [] : memberReads(code, namespace))
      add(imports, entry.specifier, name);
    if (new RegExp(`^\\s+${IDENTIFIER}\\s*(?:,|$)`).test(clause)) add(imports, entry.specifier, "default");
  }
  for (const entry of lexed[1]) {
    if (entry.type === "reexport" && !entry.typeOnly && entry.importName !== null && wanted(entry.from))
      add(imports, entry.from, entry.importName);
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
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(["'])(\.{1,2}\/[^"'\n]*)\1/g;
  return [...new Set(Array.from(code.matchAll(pattern), (match) => match[2] as string))];
}
