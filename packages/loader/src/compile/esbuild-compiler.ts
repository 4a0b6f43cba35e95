import { readFile, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { BuildFailure, BuildOptions, Message } from "esbuild";
import { writeFileAtomic } from "./atomic-write.js";
import {
  type BundleIndexEntry,
  bundlePath,
  computeBundleKey,
  findCurrentBundle,
  readBundleIndex,
  writeBundleIndex,
} from "./bundle-index.js";
import { CacheWriteError } from "./cache-write-error.js";
import { CompileFailure } from "./compile-failure.js";
import { esbuildVersion } from "./compiler-version.js";
import type { EsbuildBatch } from "./esbuild-batch.js";
import { type BundleRecord, createToolBundlePlugin } from "./esbuild-plugin.js";
import { findTsconfig } from "./find-tsconfig.js";
import { hash } from "./hash.js";
import { ensureHostModules } from "./host-modules.js";

/** Bump when the bundle layout changes, so old cache entries are not reused. */
const CACHE_FORMAT_VERSION = 1;

/** The build options every tool bundle uses (they are part of the cache key). */
const BUILD_OPTIONS = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "inline",
  write: false,
  metafile: true,
  logLevel: "silent",
  charset: "utf8",
  define: { require: "__tooldockRequire" },
} satisfies BuildOptions;

/** A compiled entry, ready to import. */
export interface CompiledBundle {
  /** `file:` URL of the cached bundle, named after its key. */
  url: string;
  /** True when the bundle came from the cache without running esbuild. */
  fromCache: boolean;
}

let contextHash: string | undefined;

/** Hash of everything besides the sources that shapes a bundle. */
export function esbuildContextHash(): string {
  contextHash ??= hash(
    JSON.stringify({ format: CACHE_FORMAT_VERSION, esbuild: esbuildVersion(), options: BUILD_OPTIONS }),
  );
  return contextHash;
}

/**
 * Compiles one entry with esbuild into `<cacheDir>/bundles/<key>.mjs`, or returns the cached
 * bundle when the index proves it current (without importing esbuild). Throws
 * {@link CompileFailure} when the module does not build and {@link CacheWriteError} when the
 * bundle cannot be written.
 */
export async function compileWithEsbuild(
  entry: string,
  cacheDir: string,
  batch: EsbuildBatch,
): Promise<CompiledBundle> {
  const context = esbuildContextHash();
  const current = await findCurrentBundle(cacheDir, entry, context);
  if (current !== undefined)
    return { url: pathToFileURL(bundlePath(cacheDir, current.key)).href, fromCache: true };

  await ensureHostModules();
  const esbuild = await batch.esbuild();
  const record: BundleRecord = { hostModules: new Map(), externals: new Set() };
  const workingDir = dirname(entry);
  let result: Awaited<ReturnType<typeof esbuild.build<typeof BUILD_OPTIONS>>>;
  try {
    result = await esbuild.build({
      ...BUILD_OPTIONS,
      entryPoints: [entry],
      absWorkingDir: workingDir,
      // The bundle is written next to this name, so source map paths resolve to the sources.
      outfile: join(cacheDir, "bundles", "bundle.mjs"),
      banner: {
        js: `import { createRequire as __tooldockCreateRequire } from "node:module"; var __tooldockRequire = __tooldockCreateRequire(${JSON.stringify(entry)});`,
      },
      plugins: [createToolBundlePlugin(record)],
    });
  } catch (error) {
    throw toCompileFailure(error, workingDir);
  }

  const inputs: Record<string, string> = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    if (/^[a-z-]+:/.test(input)) continue; // virtual host modules are keyed below
    const path = resolve(workingDir, input);
    inputs[path] = hash(await readFile(path));
  }
  const hostModules: Record<string, string> = {};
  for (const [specifier, source] of record.hostModules) hostModules[specifier] = hash(source);
  const unkeyed: Omit<BundleIndexEntry, "key"> = {
    entry,
    context,
    tsconfig: await findTsconfig(entry, hash),
    inputs,
    hostModules,
    externals: [...record.externals].sort(),
  };
  const key = computeBundleKey(unkeyed);
  const output = result.outputFiles[0]?.text ?? "";
  const previous = await readBundleIndex(cacheDir, entry);
  try {
    await writeFileAtomic(bundlePath(cacheDir, key), output);
    await writeBundleIndex(cacheDir, { ...unkeyed, key });
  } catch (error) {
    throw new CacheWriteError(cacheDir, { cause: error });
  }
  // Each entry keeps only its current bundle; modules already imported stay in memory.
  if (previous !== undefined && previous.key !== key)
    await rm(bundlePath(cacheDir, previous.key), { force: true });
  return { url: pathToFileURL(bundlePath(cacheDir, key)).href, fromCache: false };
}

function toCompileFailure(error: unknown, workingDir: string): CompileFailure {
  const messages: Message[] = (error as Partial<BuildFailure> | null)?.errors ?? [];
  const first = messages[0];
  if (first === undefined) {
    return new CompileFailure(error instanceof Error ? error.message : String(error), { cause: error });
  }
  const location = first.location;
  const file = location?.file ? resolve(workingDir, location.file) : undefined;
  const more =
    messages.length > 1 ? ` (and ${messages.length - 1} more error${messages.length > 2 ? "s" : ""})` : "";
  return new CompileFailure(`${first.text}${more}`, {
    file,
    location: location
      ? { line: location.line, column: location.column + 1, lineText: location.lineText }
      : undefined,
    cause: error,
  });
}
