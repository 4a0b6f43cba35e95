import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import vm from "node:vm";
import { writeFileAtomicSync } from "../compile/atomic-write.js";
import { isOwnPrivateFile } from "../compile/cache-folder.js";
import { hash } from "../compile/hash.js";
import { orElse } from "../discover/expand-path.js";
import { sweepOldFiles } from "./sweep-old-packs.js";

/**
 * Packs run as classic scripts compiled with V8's code cache, where the runtime allows.
 *
 * A pack is an ES module only in its last statement (`export { members, … }`) and its imports
 * of built-ins. When a pack is written, the same code is written as a script too
 * (`pack-<id>.script`, see `pack-script-text.ts`): the body of a strict function that returns
 * the exports, each import of a built-in a `const` bound from its ES namespace. A warm load
 * compiles that script with `vm.Script` and the code cache written beside it after an earlier
 * load (`createCachedData()` once the factories ran, so the functions they called are in it).
 * V8 then neither parses the pack nor compiles those functions again: a warm load of 100 tools
 * took 0.5–0.6× the time of importing the same packs (BENCHMARKS.md, issue 24's twelfth pass).
 *
 * Stack traces still name the `.ts` lines: Node applies a source map to a script by its file
 * name, so the script is compiled under the name of a one-line CommonJS file beside the pack
 * (`pack-<id>.cjs`, only the pack's `//# sourceMappingURL=`), `require`d first so that Node
 * reads the map. With source maps off, it is compiled under the pack's own name.
 *
 * Left to `import()`: a pack with no script (it imports a package, uses `import.meta` or a
 * dynamic `import()`, or an earlier version wrote it), one whose built-in lacks a name it
 * imports (the import reports it), every pack on Bun (no V8 code cache) and in a coverage run,
 * a pack with no `.cjs` while source maps are on, and one whose script throws at its top level
 * (only esbuild's helpers run there), which the import then runs as before.
 *
 * V8 runs the bytecode in a code cache, so one that is not the loader's own private file, whose
 * data does not match the SHA-256 at its head, or made for another script text (V8 only
 * compares the length) is never read. V8 refuses data from another V8 build or flags
 * (`cachedDataRejected`); the file name holds the V8 version and architecture, so that
 * runtimes sharing a cache do not overwrite each other's.
 */

/** `pack-<id>.<tag>.code`: one code cache per V8 build. */
export const CODE_CACHE_TAG = hash(`${process.versions.v8} ${process.arch}`).slice(0, 12);

const usable = process.versions.bun === undefined && typeof vm.Script === "function";
const requireFile = createRequire(import.meta.url);

/** Scripts run in this process whose code cache is missing or was refused: written after the load. */
const unwritten = new Map<string, { script: vm.Script; textHash: string }>();

/** What this process did with packs, for tests and benchmarks: each count goes up by one a pack. */
export const packScriptCounts = { fromCodeCache: 0, compiled: 0, asModule: 0 };

function besidePack(packPath: string, extension: string): string {
  return `${packPath.slice(0, -".mjs".length)}.${extension}`;
}

/** The `.cjs` file a pack's script is compiled as (see the module's comment). */
export function packStubPath(packPath: string): string {
  return besidePack(packPath, "cjs");
}

/** Where code caches go instead of beside their packs (see {@link keepCodeCachesIn}). */
let codeCacheFolder: string | undefined;

/** Keeps code caches in `folder`, not beside the packs: a tool host's packs are its host's, read only. */
export function keepCodeCachesIn(folder: string): void {
  codeCacheFolder = folder;
}

/** The code cache of a pack for this V8 build. */
export function packCodeCachePath(packPath: string): string {
  const beside = besidePack(packPath, `${CODE_CACHE_TAG}.code`);
  return codeCacheFolder === undefined ? beside : join(codeCacheFolder, basename(beside));
}

/** The text of a pack's `.cjs` file: only the pack's map, for Node to read. */
export function packStubText(packId: string): string {
  return `//# sourceMappingURL=../maps/pack-${packId}.mjs.map\n`;
}

/** The script written beside a pack (see `packScriptText`). */
export function packScriptPath(packPath: string): string {
  return besidePack(packPath, "script");
}

/** The exports of the pack at `packPath` run as a script, or `undefined`: left to `import()`. */
export async function runPackScript(packPath: string): Promise<Record<string, unknown> | undefined> {
  // A coverage run (`NODE_V8_COVERAGE`: c8, `node --test`) imports packs: such a tool reads a
  // script's ranges against the file it is named after (its `.cjs` stub or pack), not its text.
  const outcome = usable && !process.env.NODE_V8_COVERAGE ? await asScript(packPath) : undefined;
  // A script that throws is left to the import, which runs it and says what fails.
  const exports = orElse<Record<string, unknown> | undefined>(
    () => outcome?.script.runInThisContext()(outcome.builtins),
    undefined,
  );
  if (outcome === undefined || exports === undefined) {
    packScriptCounts.asModule += 1;
    return undefined;
  }
  if (outcome.fromCache) packScriptCounts.fromCodeCache += 1;
  else {
    packScriptCounts.compiled += 1;
    unwritten.set(outcome.codeCache, { script: outcome.script, textHash: outcome.textHash });
  }
  return exports;
}

/**
 * The pack's script compiled (with its code cache when that is valid), the namespaces of the
 * built-ins it binds (in the order it reads them) and the hash of its text that its first line
 * records and its code cache must name; `undefined`: the pack is imported instead.
 */
async function asScript(packPath: string) {
  const scriptPath = packScriptPath(packPath);
  if (!isOwnPrivateFile(scriptPath)) return undefined;
  const text = orElse(() => readFileSync(scriptPath, "utf8"), "");
  const head = readScriptHead(text.slice(0, text.indexOf("\n")));
  if (head === undefined) return undefined;
  const { textHash, imports } = head;
  const builtins = await builtinNamespaces(imports);
  if (builtins === undefined) return undefined;
  let filename = packPath;
  if ((process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled !== false) {
    filename = packStubPath(packPath);
    if (!isOwnPrivateFile(filename)) return undefined;
    try {
      requireFile(filename);
    } catch {
      return undefined;
    }
  }
  const codeCache = packCodeCachePath(packPath);
  const cachedData = isOwnPrivateFile(codeCache) ? readCodeCache(codeCache, textHash) : undefined;
  let script: vm.Script;
  try {
    script = new vm.Script(text, {
      filename,
      lineOffset: -1,
      ...(cachedData === undefined ? {} : { cachedData }),
    });
  } catch {
    return undefined; // the import reports what is wrong with the pack
  }
  const fromCache = cachedData !== undefined && script.cachedDataRejected !== true;
  return { script, builtins, codeCache, textHash, fromCache };
}

/** A built-in a pack imports, and the names it imports from it. */
export interface BuiltinImport {
  specifier: string;
  names: string[];
}

/** Format of a script's first line: the wrapper, the hash of the rest, the built-ins it binds. */
export const SCRIPT_FORMAT = "tooldock-pack-script-1";
export const SCRIPT_WRAPPER = '(function (__tooldockBuiltins) {"use strict";';
/** What line 1 of a script starts with; the hash of the rest and the JSON of its built-ins follow. */
const SCRIPT_HEAD = `${SCRIPT_WRAPPER} // ${SCRIPT_FORMAT} `;

/** Line 1 of a script read: its text hash and its built-ins, or `undefined` when it is not one. */
function readScriptHead(line: string): { textHash: string; imports: BuiltinImport[] } | undefined {
  if (!line.startsWith(SCRIPT_HEAD)) return undefined;
  const textHash = line.slice(SCRIPT_HEAD.length, SCRIPT_HEAD.length + 64);
  const list = line.slice(SCRIPT_HEAD.length + 65);
  if (!/^[0-9a-f]{64}$/.test(textHash)) return undefined;
  const imports = orElse(() => JSON.parse(list) as unknown, undefined);
  return Array.isArray(imports) ? { textHash, imports: imports as BuiltinImport[] } : undefined;
}

/**
 * The ES namespaces of the built-ins `imports` name, or `undefined` when one does not export a
 * name imported from it (the pack's import then reports it, as before).
 */
async function builtinNamespaces(imports: readonly BuiltinImport[]): Promise<unknown[] | undefined> {
  if (imports.length === 0) return [];
  const importing = Promise.all(imports.map(({ specifier }) => import(specifier) as Promise<object>));
  const namespaces = await importing.catch(() => undefined);
  if (namespaces === undefined) return undefined;
  const exported = imports.every(
    ({ names }, at) => Array.isArray(names) && names.every((name) => name in (namespaces[at] as object)),
  );
  return exported ? namespaces : undefined;
}

/** Bytes of the SHA-256 that heads a code cache file. */
const DIGEST_BYTES = 32;

/** The head of a code cache file: the SHA-256 of its script's text hash and of its data. */
function codeCacheDigest(textHash: string, data: Uint8Array): Buffer {
  return createHash("sha256").update(textHash).update(data).digest();
}

/**
 * The code cache at `path` for the script whose text hashes to `textHash`, or `undefined` when
 * missing, damaged or for another text. V8 checks a code cache's header but not, in a release
 * build, the bytecode after it, which it runs: a file damaged on the disk must be refused here.
 */
function readCodeCache(path: string, textHash: string): Buffer | undefined {
  const file = orElse(() => readFileSync(path), Buffer.alloc(0));
  if (file.length <= DIGEST_BYTES) return undefined;
  const data = file.subarray(DIGEST_BYTES);
  return codeCacheDigest(textHash, data).equals(file.subarray(0, DIGEST_BYTES)) ? data : undefined;
}

/**
 * Writes the code cache of every pack this process ran as a script without one (or with one V8
 * refused), now that the load ran their factories; one that cannot be written is left.
 */
export function writeCodeCaches(): void {
  // A tool host's own folder of them is swept as packs are (packs it no longer runs).
  if (unwritten.size > 0 && codeCacheFolder !== undefined)
    sweepOldFiles(codeCacheFolder, (name) => /^pack-[0-9a-f]{40}\.[0-9a-f]{12}\.code$/.test(name));
  for (const [path, { script, textHash }] of unwritten) {
    unwritten.delete(path);
    try {
      const data = script.createCachedData();
      // No `fsync`: one cut short by a crash fails its SHA-256 and is written again.
      writeFileAtomicSync(path, Buffer.concat([codeCacheDigest(textHash, data), data]), { flush: false });
    } catch {
      // Only the next load's speed depends on it.
    }
  }
}
