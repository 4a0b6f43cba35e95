import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * Loads the package `specifier` synchronously, for a synchronous API that needs it only on
 * first use: its ES build where `require` can load one (Node ≥ 20.19 and 22.12, Bun), which
 * is the very module instance an `import` of it gives elsewhere in the process; else, or when
 * an `import` of it is still under way (Node refuses to `require` a module half loaded), its
 * CommonJS build. `parentUrl` is the caller's `import.meta.url` and `resolveEsm` its
 * `() => import.meta.resolve(specifier)` (the caller's own: Node 20 resolves from no other
 * parent without a flag).
 */
export function requireShared(specifier: string, parentUrl: string, resolveEsm: () => string): unknown {
  const require = createRequire(parentUrl);
  if (process.features.require_module === true) {
    try {
      const resolved = resolveEsm();
      if (resolved.startsWith("file:")) return require(fileURLToPath(resolved));
    } catch {
      // Half loaded by an import under way, or not resolvable as ESM: the CommonJS build.
    }
  }
  return require(specifier);
}
