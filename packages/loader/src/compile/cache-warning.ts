import type { Diagnostic } from "@tooldock/sdk";
import { createWarning, describeError } from "../diagnostics.js";
import { CACHE_DIR_ENV } from "./cache-dir.js";
import type { CacheFolderState } from "./cache-folder.js";

/**
 * The warning for a cache the load does not use: `W_CACHE_UNSAFE` when someone else could have
 * put files in it, `W_CACHE_UNWRITABLE` when it cannot be created (`entry`: the module then compiled).
 */
export function cacheWarning(
  state: Exclude<CacheFolderState, { usable: true }>,
  cacheDir: string,
  entry: string,
): Diagnostic {
  if (state.problem === "unwritable") return cacheUnwritableWarning(cacheDir, state.reason, entry);
  return createWarning("W_CACHE_UNSAFE", {
    message:
      `The compile cache ${state.folder} ${state.reason}: another user could have put code there that ` +
      "would run as you. Nothing was read from it; this load compiled with jiti instead, without a cache.",
    path: entry,
    hint:
      `Remove the cache (rm -rf ${cacheDir}) and Tooldock creates it again, private (mode 700), on the ` +
      `next load; or point cacheDir / $${CACHE_DIR_ENV} at a folder only you can write.`,
  });
}

/**
 * `W_CACHE_UNWRITABLE`: the rest of the batch compiles with jiti, without a cache (`writer`:
 * who found the cache unwritable, esbuild writing a pack or jiti its own transform cache).
 */
export function cacheUnwritableWarning(
  cacheDir: string,
  reason: string,
  entry: string,
  writer: "esbuild" | "jiti" | "after-load" = "esbuild",
): Diagnostic {
  const messages = {
    esbuild: `esbuild cannot write the compile cache in ${cacheDir} (${reason}); compiling with jiti instead, without a cache.`,
    jiti: `jiti cannot write the compile cache in ${cacheDir} (${reason}); compiling without a cache.`,
    "after-load": `esbuild cannot write the compile cache in ${cacheDir} (${reason}); the modules this load compiled file by file are compiled again by the next one.`,
  };
  return createWarning("W_CACHE_UNWRITABLE", {
    message: messages[writer],
    path: entry,
    hint: `Make ${cacheDir} writable, or point cacheDir / $${CACHE_DIR_ENV} at a writable folder.`,
  });
}

/**
 * `W_COMPILER_FALLBACK`: esbuild could not be imported, so the batch compiles with jiti
 * (`afterLoad`: the build of the packs of the modules a load compiled file by file).
 */
export function compilerFallbackWarning(error: unknown, entry: string, afterLoad = false): Diagnostic {
  return createWarning("W_COMPILER_FALLBACK", {
    message: `esbuild could not be loaded (${describeError(error)}); ${afterLoad ? "the modules this load compiled file by file are not cached and are compiled again by the next load" : "compiling with jiti instead"}.`,
    path: entry,
    hint: `Reinstall esbuild for this platform, or pass compiler: "jiti" to ${afterLoad ? "compile with jiti and its cache" : "silence this warning"}.`,
  });
}

/**
 * `W_COMPILER_FALLBACK` of an isolated load: the host could not build the packs its tool host
 * evaluates (esbuild could not be loaded, or the build failed as a whole), so the tool host
 * compiled the modules with jiti.
 */
export function toolHostPacksWarning(error: unknown, entry: string): Diagnostic {
  return createWarning("W_COMPILER_FALLBACK", {
    message: `The packs of the tool host could not be built (${describeError(error)}); the tool host compiled the modules with jiti instead, which is slower and writes no code caches.`,
    path: entry,
    hint: 'Reinstall esbuild for this platform, or pass compiler: "jiti" to silence this warning.',
  });
}
