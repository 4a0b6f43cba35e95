import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import vm from "node:vm";
import { writeFileAtomicSync } from "../compile/atomic-write.js";
import { isOwnPrivateFile } from "../compile/cache-folder.js";
import { hash } from "../compile/hash.js";

/**
 * Packs run as classic scripts compiled with V8's code cache, where the runtime allows.
 *
 * A pack is an ES module only in its last statement (`export { members, … }`) and its imports
 * of built-ins (a pack of one member has at least the `require` banner's `createRequire`).
 * Written as the body of a strict function that returns the exports, each import of a
 * built-in a `const` bound from the built-in's ES namespace (what the import binds), it is a
 * script `vm.Script` compiles with the V8 code cache written beside it after an
 * earlier load (`script.createCachedData()`, once the load has run the factories, so the
 * functions they called are in it too). V8 then neither parses the pack nor compiles those
 * functions again: a warm load of 100 tools took 0.5–0.6× the time of importing the same
 * packs (BENCHMARKS.md, issue 24's twelfth pass). Nothing else of a pack changes: its members
 * are the same functions, evaluated once per process, in strict mode as a module's code is.
 *
 * Stack traces still name the `.ts` lines: Node applies a source map to a script by its file
 * name, as to a CommonJS module, so the script is compiled under the name of a one-line
 * CommonJS file written beside the pack (`pack-<id>.cjs`, nothing in it but the pack's
 * `//# sourceMappingURL=`), which is `require`d first so that Node reads the map, as the
 * import of the pack did.
 *
 * Left to `import()`: a pack with any other `import` or `export` (a package it imports, an
 * import for its effect alone), a top-level `await`, `import.meta` or a dynamic
 * `import()` (a script cannot have them); every pack on Bun (its engine has no V8 code
 * cache); a pack with no `.cjs` beside it (written by an earlier version) while source maps
 * are on.
 *
 * The code cache is the loader's own file, like the pack (`isOwnPrivateFile`): V8 runs the
 * bytecode in it, so one that anyone else could have written is never read, nor one whose
 * data does not match the SHA-256 at its head (see {@link readCodeCache}). V8 refuses data
 * from another V8 build or with other flags (`cachedDataRejected`); the file name holds the V8
 * version and architecture, so that runtimes sharing a cache do not overwrite each other's.
 */

/** `pack-<id>.<tag>.code`: one code cache per V8 build. */
export const CODE_CACHE_TAG = hash(`${process.versions.v8} ${process.arch}`).slice(0, 12);

const usable = process.versions.bun === undefined && typeof vm.Script === "function";
const requireFile = createRequire(import.meta.url);

/**
 * A static import as esbuild writes it, at the start of a line: a default, then named bindings
 * or a namespace. A pack's imports of built-ins become bindings from the built-in's namespace;
 * any other import stays, and keeps the pack a module.
 */
const STATIC_IMPORT = /^import (?:([\w$]+)(?:, )?)?(?:\{([^}\n]*)\}|\* as ([\w$]+))? from "([^"\n]+)";/gm;
const EXPORTS = /\nexport \{([\w$,\s]*)\};/g;
const DYNAMIC_IMPORT = /\bimport\s*\(/;

/** Scripts run in this process whose code cache is missing or was refused: written after the load. */
const unwritten = new Map<string, vm.Script>();

/** What this process did with packs, for tests and benchmarks: each count goes up by one a pack. */
export const packScriptCounts = { fromCodeCache: 0, compiled: 0, asModule: 0 };

/** The `.cjs` file a pack's script is compiled as (see the module's comment). */
export function packStubPath(packPath: string): string {
  return `${packPath.slice(0, -".mjs".length)}.cjs`;
}

/** The code cache of a pack for this V8 build. */
export function packCodeCachePath(packPath: string): string {
  return `${packPath.slice(0, -".mjs".length)}.${CODE_CACHE_TAG}.code`;
}

/** The text of a pack's `.cjs` file: only the pack's map, for Node to read. */
export function packStubText(packId: string): string {
  return `//# sourceMappingURL=../maps/pack-${packId}.mjs.map\n`;
}

/**
 * The exports of the pack at `packPath`, run as a script (see the module's comment), or
 * `undefined` when it is left to `import()`. Rejects with what running the pack's top level
 * throws.
 */
export async function runPackScript(packPath: string): Promise<Record<string, unknown> | undefined> {
  const outcome = usable ? await asScript(packPath) : undefined;
  if (outcome === undefined) {
    packScriptCounts.asModule += 1;
    return undefined;
  }
  const { script, builtins, codeCache, fromCache } = outcome;
  if (fromCache) packScriptCounts.fromCodeCache += 1;
  else {
    packScriptCounts.compiled += 1;
    unwritten.set(codeCache, script);
  }
  const run = script.runInThisContext() as (builtins: unknown[]) => Record<string, unknown>;
  return run(builtins);
}

interface PackScript {
  script: vm.Script;
  /** The namespaces of the built-ins the pack imports, in the order its script reads them. */
  builtins: unknown[];
  codeCache: string;
  fromCache: boolean;
}

async function asScript(packPath: string): Promise<PackScript | undefined> {
  let source: string;
  try {
    source = readFileSync(packPath, "utf8");
  } catch {
    return undefined; // `import()` says why
  }
  if (DYNAMIC_IMPORT.test(source) || source.includes("import.meta")) return undefined;
  const body = functionBody(source);
  if (body === undefined) return undefined;
  const builtins = await builtinNamespaces(body.imports);
  if (builtins === undefined) return undefined;
  const stub = packStubPath(packPath);
  if ((process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled !== false) {
    if (!isOwnPrivateFile(stub)) return undefined;
    try {
      requireFile(stub);
    } catch {
      return undefined;
    }
  }
  const codeCache = packCodeCachePath(packPath);
  const cachedData = isOwnPrivateFile(codeCache) ? readCodeCache(codeCache) : undefined;
  let script: vm.Script;
  try {
    script = new vm.Script(`(function (__tooldockBuiltins) {"use strict";\n${body.code}\n})`, {
      filename: stub,
      lineOffset: -1,
      ...(cachedData === undefined ? {} : { cachedData }),
    });
  } catch {
    return undefined; // not a script after all (an import of a package, a top-level await)
  }
  return {
    script,
    builtins,
    codeCache,
    fromCache: cachedData !== undefined && script.cachedDataRejected !== true,
  };
}

/** A built-in a pack imports, and the names it imports from it. */
interface BuiltinImport {
  specifier: string;
  names: string[];
}

/**
 * The pack as a function body returning its exports, and the built-ins its imports bind, or
 * `undefined` when it is not shaped as expected. Each import of a built-in becomes a `const`
 * bound from the built-in's ES namespace (`__tooldockBuiltins[i]`), as the import binds:
 * `path = ns.default`, `{ join, basename: base } = ns`, `os = ns` for `* as os`. Lines stay
 * where they were: a source map names them.
 */
function functionBody(source: string): { code: string; imports: BuiltinImport[] } | undefined {
  const matches = [...source.matchAll(EXPORTS)];
  const last = matches.at(-1);
  if (matches.length !== 1 || last === undefined) return undefined;
  const at = last.index as number;
  const withReturn = `${source.slice(0, at)}\nreturn {${last[1]}};${source.slice(at + last[0].length)}`;
  const imports: BuiltinImport[] = [];
  let unknown = false;
  const code = withReturn.replace(
    STATIC_IMPORT,
    (
      statement,
      name: string | undefined,
      named: string | undefined,
      whole: string | undefined,
      specifier,
    ) => {
      const binding = isBuiltin(specifier) ? bindings(name, named, whole, imports.length) : undefined;
      if (binding === undefined) {
        unknown = true;
        return statement;
      }
      imports.push({ specifier, names: binding.names });
      return binding.code;
    },
  );
  return unknown ? undefined : { code, imports };
}

/** The `const` that binds an import from `__tooldockBuiltins[at]`, and the names it reads. */
function bindings(
  name: string | undefined,
  named: string | undefined,
  whole: string | undefined,
  at: number,
): { code: string; names: string[] } | undefined {
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
  if (declarations.length === 0) return undefined; // `import {} from`: left to the module
  return { code: `const ${declarations.join(", ")};`, names };
}

/**
 * The ES namespaces of the built-ins `imports` name, or `undefined` when one does not export a
 * name imported from it (the pack's import then reports it, as before).
 */
async function builtinNamespaces(imports: readonly BuiltinImport[]): Promise<unknown[] | undefined> {
  if (imports.length === 0) return [];
  let namespaces: Record<string, unknown>[];
  try {
    namespaces = await Promise.all(imports.map(({ specifier }) => import(specifier)));
  } catch {
    return undefined;
  }
  const exported = imports.every(({ names }, at) =>
    names.every((name) => name in (namespaces[at] as object)),
  );
  return exported ? namespaces : undefined;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Bytes of the SHA-256 that heads a code cache file. */
const DIGEST_BYTES = 32;

/**
 * The code cache in the file at `path`, or `undefined` when it is missing or damaged. The file
 * is the data's SHA-256 and the data: V8 checks its header (version, flags, the source's
 * length) but, in a release build, not the bytecode after it, which it runs; a file damaged on
 * the disk must be refused here, not run.
 */
function readCodeCache(path: string): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  if (file.length <= DIGEST_BYTES) return undefined;
  const data = file.subarray(DIGEST_BYTES);
  return createHash("sha256").update(data).digest().equals(file.subarray(0, DIGEST_BYTES)) ? data : undefined;
}

/**
 * Writes the code cache of every pack this process ran as a script without one (or with one
 * V8 refused), now that the load ran their factories; `write: false` (a tool host reading its
 * host's packs) only forgets them. A cache that cannot be written is left for the next load.
 */
export function writeCodeCaches(write: boolean): void {
  for (const [path, script] of unwritten) {
    unwritten.delete(path);
    if (!write) continue;
    try {
      const data = script.createCachedData();
      writeFileAtomicSync(path, Buffer.concat([createHash("sha256").update(data).digest(), data]));
    } catch {
      // Only the next load's speed depends on it.
    }
  }
}
