import { createRequire } from "node:module";
import type * as AjvModule from "ajv";

/**
 * Loads Ajv (with the URI parser it brings, ~120 KB of code that took ~15 ms to import) when
 * the first schema TypeBox's compiler cannot compile needs it, instead of at every import of
 * the runtime; most processes never need it. Ajv is CommonJS, so a synchronous `require` can
 * load it there and `compileJsonSchema` stays synchronous.
 *
 * The CLI's bundle replaces this module with one that requires the copy of Ajv it ships
 * beside its chunks (`packages/cli/scripts/lazy-ajv.mjs`): keep the export's name and shape.
 */
export function loadAjv(): typeof AjvModule {
  return createRequire(import.meta.url)("ajv") as typeof AjvModule;
}
