import { isBuiltin } from "node:module";
import { parse } from "es-module-lexer";
import { hash } from "../compile/hash.js";
import { orElse } from "../discover/expand-path.js";
import { type BuiltinImport, SCRIPT_FORMAT, SCRIPT_WRAPPER } from "./pack-script.js";

// Imported by the build only (a warm load reads the scripts written here): the lexer is never
// loaded by a load that builds nothing.

/**
 * The script form of the pack `packText` (see the module's comment), or `undefined` when it
 * has none: an import of anything but a built-in, `import.meta`, a dynamic `import()`, an
 * export other than the pack's last statement, or code `es-module-lexer` cannot read. Line 1
 * is the wrapper (with the hash of the rest and the built-ins it binds), so the pack's line
 * `n` is the script's line `n + 1` (compiled with `lineOffset: -1`); each rewritten statement
 * keeps its line breaks, so every line stays where the source map puts it.
 */
export function packScriptText(packText: string): string | undefined {
  const lexed = orElse<ReturnType<typeof parse> | undefined>(() => parse(packText), undefined);
  if (lexed === undefined) return undefined;
  const [imports, exports] = lexed;
  const close = packText.lastIndexOf("};");
  const open = packText.lastIndexOf("\nexport {", close);
  if (open === -1 || close === -1) return undefined;
  const returned: string[] = [];
  for (const found of exports) {
    if (found.type !== "direct" || found.localName === undefined) return undefined;
    if (found.exportStart < open || found.exportStart > close) return undefined;
    returned.push(
      found.name === found.localName ? found.name : `${JSON.stringify(found.name)}: ${found.localName}`,
    );
  }
  const exported = keepLines(`return { ${returned.join(", ")} };`, packText.slice(open + 1, close + 2));
  const edits = [{ start: open + 1, end: close + 2, text: exported }];
  const builtins: BuiltinImport[] = [];
  for (const found of imports) {
    if (found.type !== "static" || found.phase !== null || found.attributes !== null) return undefined;
    if (!isBuiltin(found.specifier)) return undefined;
    const statement = packText.slice(found.importStart, found.importEnd);
    const binding = bindings(statement, builtins.length);
    if (binding === undefined) return undefined;
    builtins.push({ specifier: found.specifier, names: binding.names });
    edits.push({ start: found.importStart, end: found.importEnd, text: keepLines(binding.code, statement) });
  }
  let body = packText;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    body = body.slice(0, edit.start) + edit.text + body.slice(edit.end);
  const rest = `${body}\n})`;
  return `${SCRIPT_WRAPPER} // ${SCRIPT_FORMAT} ${hash(rest)} ${JSON.stringify(builtins)}\n${rest}`;
}

/** `text` followed by as many line breaks as `replaced` held. */
function keepLines(text: string, replaced: string): string {
  return text + "\n".repeat(replaced.split("\n").length - 1);
}

/** An import statement's clause: a default, then named bindings or a namespace. */
const IMPORT_CLAUSE =
  /^import\s+(?:([\w$]+)\s*(?:,\s*)?)?(?:\{([^}]*)\}|\*\s*as\s+([\w$]+))?\s*from\s*(?:"[^"]*"|'[^']*')\s*;?$/;

/**
 * The `const` that binds the import `statement` from `__tooldockBuiltins[at]`, as the import
 * binds from the built-in's namespace (`path = ns.default`, `{ join, basename: base } = ns`,
 * `os = ns` for `* as os`), and the names it reads; `undefined` for any other form.
 */
function bindings(statement: string, at: number): { code: string; names: string[] } | undefined {
  const clause = IMPORT_CLAUSE.exec(statement);
  if (clause === null) return undefined;
  const [, name, named, whole] = clause;
  const namespace = `__tooldockBuiltins[${at}]`;
  const declarations: string[] = [];
  const names: string[] = [];
  if (name !== undefined) {
    declarations.push(`${name} = ${namespace}.default`);
    names.push("default");
  }
  if (whole !== undefined) declarations.push(`${whole} = ${namespace}`);
  const properties: string[] = [];
  for (const part of named === undefined ? [] : named.split(",")) {
    const text = part.trim();
    if (text === "") continue;
    const [imported, local = imported] = text.split(/\s+as\s+/);
    if (imported === undefined || !IDENTIFIER.test(imported) || !IDENTIFIER.test(local as string))
      return undefined;
    properties.push(imported === local ? imported : `${imported}: ${local}`);
    names.push(imported);
  }
  if (properties.length > 0) declarations.push(`{ ${properties.join(", ")} } = ${namespace}`);
  if (declarations.length === 0) return undefined; // `import {} from`, an import for its effect
  return { code: `const ${declarations.join(", ")};`, names };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
