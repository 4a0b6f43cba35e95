import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import vm from "node:vm";
import { writeFileAtomicSync } from "../compile/atomic-write.js";
import { isOwnPrivateFile } from "../compile/cache-folder.js";
import { hash } from "../compile/hash.js";

/**
 * Packs run as classic scripts compiled with V8's code cache, where the runtime allows.
 *
 * A pack is an ES module only in its last statement (`export { members, … }`) and, for a pack
 * of one member, its first line (the `require` banner's `import { createRequire }`). Written
 * as the body of a strict function that takes `createRequire` and returns the exports, it is
 * a script `vm.Script` compiles with the V8 code cache written beside it after an earlier
 * load (`script.createCachedData()`, once the load has run the factories, so the functions
 * they called are in it too). V8 then neither parses the pack nor compiles those functions
 * again: a warm load of 100 tools took 0.5–0.6× the time of importing the same packs
 * (BENCHMARKS.md, issue 24's twelfth pass). Nothing else of a pack changes: its members are
 * the same functions, evaluated once per process, in strict mode as a module's code is.
 *
 * Stack traces still name the `.ts` lines: Node applies a source map to a script by its file
 * name, as to a CommonJS module, so the script is compiled under the name of a one-line
 * CommonJS file written beside the pack (`pack-<id>.cjs`, nothing in it but the pack's
 * `//# sourceMappingURL=`), which is `require`d first so that Node reads the map, as the
 * import of the pack did.
 *
 * Left to `import()`: a pack with any other `import` or `export` (a package or built-in it
 * imports), a top-level `await`, `import.meta` or a dynamic `import()` (a script cannot
 * have them); every pack on Bun (its engine has no V8 code cache); a pack with no `.cjs`
 * beside it (written by an earlier version) while source maps are on.
 *
 * The code cache is the loader's own file, like the pack (`isOwnPrivateFile`): V8 runs the
 * bytecode in it, so one that anyone else could have written is never read. V8 refuses
 * data from another V8 build or with other flags (`cachedDataRejected`); the file name holds
 * the V8 version and architecture, so that runtimes sharing a cache do not overwrite each
 * other's.
 */

/** `pack-<id>.<tag>.code`: one code cache per V8 build. */
export const CODE_CACHE_TAG = hash(`${process.versions.v8} ${process.arch}`).slice(0, 12);

const usable = process.versions.bun === undefined && typeof vm.Script === "function";
const requireFile = createRequire(import.meta.url);

/** The first line of a pack of one member, up to its `;` (see the `require` banner). */
const REQUIRE_BANNER = 'import { createRequire as __tooldockCreateRequire } from "node:module";';
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
 * `undefined` when it is left to `import()`. Throws what running the pack's top level throws.
 */
export function runPackScript(packPath: string): Record<string, unknown> | undefined {
  const outcome = usable ? asScript(packPath) : undefined;
  if (outcome === undefined) {
    packScriptCounts.asModule += 1;
    return undefined;
  }
  const { script, codeCache, fromCache } = outcome;
  if (fromCache) packScriptCounts.fromCodeCache += 1;
  else {
    packScriptCounts.compiled += 1;
    unwritten.set(codeCache, script);
  }
  const run = script.runInThisContext() as (require: typeof createRequire) => Record<string, unknown>;
  return run(createRequire);
}

function asScript(
  packPath: string,
): { script: vm.Script; codeCache: string; fromCache: boolean } | undefined {
  let source: string;
  try {
    source = readFileSync(packPath, "utf8");
  } catch {
    return undefined; // `import()` says why
  }
  if (DYNAMIC_IMPORT.test(source) || source.includes("import.meta")) return undefined;
  const body = functionBody(source);
  if (body === undefined) return undefined;
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
    script = new vm.Script(`(function (__tooldockCreateRequire) {"use strict";\n${body}\n})`, {
      filename: stub,
      lineOffset: -1,
      ...(cachedData === undefined ? {} : { cachedData }),
    });
  } catch {
    return undefined; // not a script after all (an import of a package, a top-level await)
  }
  return { script, codeCache, fromCache: cachedData !== undefined && script.cachedDataRejected !== true };
}

/** The pack as a function body returning its exports, or `undefined` when it is not shaped as expected. */
function functionBody(source: string): string | undefined {
  const matches = [...source.matchAll(EXPORTS)];
  const last = matches.at(-1);
  if (matches.length !== 1 || last === undefined) return undefined;
  const at = last.index as number;
  const body = `${source.slice(0, at)}\nreturn {${last[1]}};${source.slice(at + last[0].length)}`;
  // The banner sits on line 1, which has no mappings: removing it moves nothing a map names.
  return body.startsWith(REQUIRE_BANNER) ? body.slice(REQUIRE_BANNER.length) : body;
}

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
