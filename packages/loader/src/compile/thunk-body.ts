import { isBuiltin } from "node:module";
import { init, parse } from "es-module-lexer";
import { hash } from "./hash.js";

/** A bundle rewritten as the body of an `async function`, to be wrapped in a pack. */
export interface ThunkBody {
  /**
   * The bindings of the bundle's imports of Node built-ins, read from the namespaces the
   * pack imports ({@link builtinAlias}), each named import checked as ES module linking
   * would. One line without a line break, to run before any of the body: an ES module's
   * imports are bound before any code of the module graph runs, and code of a module
   * esbuild placed earlier in the bundle may call into this one (an import cycle).
   */
  header: string;
  /**
   * The bundle's code with the same line breaks: the import statements are blanked (their
   * bindings are in {@link header}), the export clause becomes a `return` of an object whose
   * getters read the exported bindings, and a `sourceMappingURL` comment is dropped. Line
   * `n` of the body is line `n` of the bundle, so the bundle's source map applies once
   * shifted.
   */
  body: string;
  /** The built-in specifiers the body reads, for the pack to import once each. */
  builtins: string[];
}

const IMPORT_CLAUSE = /^import\s*([\s\S]*?)\s*from\s*["'][^"']*["']\s*$/;
const SIDE_EFFECT_IMPORT = /^import\s*["'][^"']*["']\s*$/;
const NAMESPACE_BINDING = /^\*\s*as\s+([\w$]+)$/;
const IDENTIFIER = /^[\w$]+$/;
const NAMED_BINDING = /^(?:([\w$]+)|("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'))(?:\s+as\s+([\w$]+))?$/;

/** The pack-level name of the namespace a pack imports for a Node built-in. */
export function builtinAlias(specifier: string): string {
  return `__tooldockBuiltin_${specifier.replace(/[^\w$]/g, "_")}_${hash(specifier).slice(0, 8)}`;
}

/** Loads the lexer (a WebAssembly module); call before {@link toThunkBody}. */
export function loadThunkLexer(): Promise<void> {
  return init();
}

/**
 * Rewrites an ESM bundle written by the esbuild compiler as the body of a function, so many
 * bundles can share one file and each one's top-level code runs only when its function is
 * called. `undefined` when the bundle cannot be rewritten without changing what it does: it
 * imports anything but Node built-ins (a package's top-level code would run when the pack
 * is imported, outside the module's guard), reads `import.meta`, re-exports, or has a form
 * the rewrite does not recognise (the result is parsed before it is accepted). Such a bundle
 * is imported on its own, as before.
 */
export function toThunkBody(bundle: string): ThunkBody | undefined {
  let code = stripSourceMapComment(bundle);
  // A hashbang is only valid as the first characters of a file: keep the line, as a comment.
  if (code.startsWith("#!")) code = `//${code.slice(2)}`;
  let imports: ReturnType<typeof parse>[0];
  let exports: ReturnType<typeof parse>[1];
  try {
    [imports, exports] = parse(code);
  } catch {
    return undefined;
  }
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const builtins = new Set<string>();
  const declarations: string[] = [];
  for (const entry of imports) {
    if (entry.type === "dynamic") continue; // resolved from the pack's folder, as from the bundle's
    if (entry.type !== "static" || !isBuiltin(entry.specifier) || entry.attributes !== null) return undefined;
    const statement = code.slice(entry.importStart, entry.importEnd);
    const bindings = bindingsOf(statement, entry.specifier);
    if (bindings === undefined) return undefined;
    builtins.add(entry.specifier);
    declarations.push(bindings);
    edits.push({ start: entry.importStart, end: entry.importEnd, text: keepLines(statement, "") });
  }
  const exported = exportsReturn(code, exports);
  if (exported === undefined) return undefined;
  if (exported.edit !== undefined) edits.push(exported.edit);
  edits.sort((a, b) => a.start - b.start);
  let body = "";
  let at = 0;
  for (const edit of edits) {
    body += code.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  body += code.slice(at);
  if (exported.edit === undefined) body += `\nreturn { __proto__: null };`;
  const header = declarations.filter((declaration) => declaration !== "").join(" ");
  return parses(`${header}\n${body}`) ? { header, body, builtins: [...builtins] } : undefined;
}

const AsyncFunction = (async () => {}).constructor as new (body: string) => unknown;

/**
 * True when V8 accepts the body as a function body (it is only parsed, never run): what the
 * lexer did not see (a stray `export`, an unusual form) must not break the whole pack.
 */
function parses(body: string): boolean {
  try {
    new AsyncFunction(body);
    return true;
  } catch {
    return false; // a syntax error, or code generation from strings is disallowed
  }
}

/**
 * `import … from "x"` as declarations reading the pack's namespace of `x`. A named import
 * the built-in does not export throws the `SyntaxError` ES module linking throws (a Node
 * version without it), instead of binding `undefined`.
 */
function bindingsOf(statement: string, specifier: string): string | undefined {
  const alias = builtinAlias(specifier);
  if (SIDE_EFFECT_IMPORT.test(statement)) return "";
  const clause = IMPORT_CLAUSE.exec(statement)?.[1];
  if (clause === undefined) return undefined;
  const declarations: string[] = [];
  let rest = clause.trim();
  // A default binding comes first: `x`, `x, { … }` or `x, * as y`.
  const comma = rest.indexOf(",");
  const head = (comma === -1 ? rest : rest.slice(0, comma)).trim();
  if (IDENTIFIER.test(head)) {
    declarations.push(`const ${head} = ${alias}.default;`);
    rest = comma === -1 ? "" : rest.slice(comma + 1).trim();
  }
  if (rest === "") return declarations.join(" ");
  const namespace = NAMESPACE_BINDING.exec(rest);
  if (namespace !== null) return [...declarations, `const ${namespace[1]} = ${alias};`].join(" ");
  if (!rest.startsWith("{") || !rest.endsWith("}")) return undefined;
  const properties: string[] = [];
  const checks: string[] = [];
  for (const part of rest.slice(1, -1).split(",")) {
    const binding = part.trim();
    if (binding === "") continue;
    const named = NAMED_BINDING.exec(binding);
    if (named === null) return undefined;
    const [, identifier, quoted, local] = named;
    let name: string;
    if (identifier !== undefined) {
      properties.push(local === undefined ? identifier : `${identifier}: ${local}`);
      name = identifier;
    } else if (quoted?.startsWith('"') && local !== undefined) {
      properties.push(`${quoted}: ${local}`);
      name = JSON.parse(quoted) as string;
    } else return undefined; // a single-quoted name (esbuild writes double quotes), or no local name
    const message = `The requested module '${specifier}' does not provide an export named '${name}'`;
    checks.push(
      `if (!(${JSON.stringify(name)} in ${alias})) throw new SyntaxError(${JSON.stringify(message)});`,
    );
  }
  return [...checks, ...declarations, `const { ${properties.join(", ")} } = ${alias};`].join(" ");
}

/**
 * The edit turning the bundle's export clause into a `return`, or no edit when it exports
 * nothing; `undefined` when its exports are not one trailing `export { local as name }`.
 */
function exportsReturn(
  code: string,
  exports: ReturnType<typeof parse>[1],
): { edit?: { start: number; end: number; text: string } } | undefined {
  if (exports.length === 0) return {};
  const start = exports[0]?.exportStart ?? -1;
  const getters: string[] = [];
  for (const entry of exports) {
    if (entry.type !== "direct" || entry.localName === undefined || entry.exportStart !== start)
      return undefined;
    getters.push(`get ${JSON.stringify(entry.name)}() { return ${entry.localName}; }`);
  }
  const close = code.indexOf("}", start);
  if (close === -1 || !/^export\s*\{/.test(code.slice(start, start + 16))) return undefined;
  const end = code[close + 1] === ";" ? close + 2 : close + 1;
  // Only comments and whitespace may follow: the return must be the body's last statement.
  if (
    code
      .slice(end)
      .replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "")
      .trim() !== ""
  )
    return undefined;
  const statement = code.slice(start, end);
  const text = `return { __proto__: null, ${getters.join(", ")} };`;
  return { edit: { start, end, text: keepLines(statement, text) } };
}

/** `text`, followed by as many line breaks as `replaced` had, so later lines keep their numbers. */
function keepLines(replaced: string, text: string): string {
  const breaks = replaced.split("\n").length - 1;
  return text + "\n".repeat(breaks);
}

function stripSourceMapComment(code: string): string {
  return code.replace(/\/\/# sourceMappingURL=[^\n]*\n?$/, "");
}
