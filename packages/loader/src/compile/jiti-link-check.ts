import { readFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname, extname } from "node:path";
import { parse as parseCommonJs } from "cjs-module-lexer";
import { orElse } from "../discover/expand-path.js";
import { commonJsAwaitFailure, isCommonJsFile } from "./commonjs-await.js";
import { CompileFailure } from "./compile-failure.js";
import {
  canonicalHostSpecifier,
  getHostModule,
  isStandInSpecifier,
  missingHostExports,
  STAND_IN_SPECIFIERS,
} from "./host-modules.js";
import { reportMissingExports } from "./host-packages/missing-exports.js";
import { cjsValueImports } from "./host-packages/value-imports.js";
import { importedName, locationAt } from "./import-locations.js";
import { resolveRelative, toolSources } from "./tool-sources.js";

/** jiti's transform of a file's source (to CommonJS, as Babel writes it). */
export type Transform = (file: string, source: string) => string;

/** Whether jiti transforms `file` as TypeScript. */
export function isTypeScript(file: string): boolean {
  return /\.[cm]?tsx?$/.test(file);
}

const requireBuiltin = createRequire(import.meta.url);
/** Babel's getter of a re-exported name: `get: function () {return _helper.name;}`. */
const REEXPORT_GETTER = /get: function \(\) \{return [A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*;\}/g;
const SOURCE_EXTENSIONS = new Set([".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".jsx"]);

/**
 * jiti turns `import { name } from "./helper.js"` into a property read, so a name the helper
 * does not export is `undefined` instead of the link error Node and esbuild report before any
 * code runs. This finds the first such import in the tool's own files, in jiti's transform of
 * each (type-only imports gone), and throws esbuild's {@link CompileFailure}. Checked: the
 * tool's own ES modules (not CommonJS ones, nor any with `export *`), the host's modules and
 * Node's built-ins, not installed packages (nor does esbuild); a name a TypeScript file only
 * re-exports may be a type and passes. A file that does not transform is skipped (jiti reports
 * it). A CommonJS file that awaits at its top level fails too (`commonJsAwaitFailure`).
 *
 * The same walk reports, in every file, each name read from a stand-in that the stand-in lacks
 * (`reportMissingExports`: a `W_HOST_EXPORT_MISSING`, jiti reads it as `undefined`).
 */
export function checkJitiImports(entry: string, transform: Transform): void {
  /** What each imported module exports, by importing folder and specifier; `undefined`: unknown. */
  const exportsOf = new Map<string, Set<string> | undefined>();
  let failure: CompileFailure | undefined;
  files: for (const { file, source } of toolSources(entry)) {
    const namesStandIn = STAND_IN_SPECIFIERS.some((specifier) => source.includes(specifier));
    if (failure !== undefined && !namesStandIn) continue; // after a failure, for the warnings alone
    const code = orElse<string | undefined>(() => transform(file, source), undefined);
    if (code === undefined) continue;
    if (namesStandIn)
      for (const [specifier, names] of cjsValueImports(code, isStandInSpecifier))
        reportMissingExports(specifier, missingHostExports(specifier, names));
    if (failure !== undefined) continue; // the walk goes on for the warnings alone
    if (isCommonJsFile(file)) failure = commonJsAwaitFailure(file, source, code);
    if (failure !== undefined) continue;
    const checkable = (specifier: string) =>
      specifier.startsWith(".") || isBuiltin(specifier) || hostChecked(specifier);
    // In TypeScript a name that is only re-exported may be a type: esbuild lets it through.
    const values = isTypeScript(file) ? code.replace(REEXPORT_GETTER, "") : code;
    for (const [specifier, names] of cjsValueImports(values, checkable)) {
      const key = `${dirname(file)}\u0000${specifier}`;
      if (!exportsOf.has(key)) exportsOf.set(key, exportedNames(dirname(file), specifier, transform));
      const available = exportsOf.get(key);
      if (available === undefined) continue;
      for (const name of names) {
        if (available.has(name)) continue;
        // A member read of a namespace import (`ns.missing`) is `undefined` natively too.
        const offset = importedName(source, specifier, name)?.offset;
        if (offset === undefined) continue;
        failure = new CompileFailure(`No matching export in "${specifier}" for import "${name}"`, {
          file,
          location: locationAt(source, offset),
        });
        continue files;
      }
    }
  }
  if (failure !== undefined) throw failure;
}

function hostChecked(specifier: string): boolean {
  return canonicalHostSpecifier(specifier) !== undefined && !isStandInSpecifier(specifier);
}

/** What `specifier` exports seen from `folder`; `undefined` when that cannot be known. */
function exportedNames(folder: string, specifier: string, transform: Transform): Set<string> | undefined {
  if (hostChecked(specifier)) return new Set(Object.keys(getHostModule(specifier)));
  if (isBuiltin(specifier)) return new Set([...Object.keys(requireBuiltin(specifier) as object), "default"]);
  const target = resolveRelative(folder, specifier);
  if (target === undefined || !SOURCE_EXTENSIONS.has(extname(target))) return undefined;
  try {
    const code = transform(target, readFileSync(target, "utf8"));
    // CommonJS (no `__esModule` marker) or `export *`: its names are known only when it runs.
    const { exports, reexports } = parseCommonJs(code);
    if (!exports.includes("__esModule") || reexports.length > 0) return undefined;
    return new Set(exports.filter((name) => name !== "__esModule"));
  } catch {
    return undefined; // the file does not transform, or the lexer cannot read it
  }
}
