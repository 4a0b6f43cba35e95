import { createRequire } from "node:module";
import type * as AjvModule from "ajv";
import type * as Ajv2020Module from "ajv/dist/2020.js";
import type * as FormatsModule from "ajv-formats/dist/formats.js";
import type * as Re2Module from "re2js";

/**
 * Loads Ajv (with the URI parser it brings, ~120 KB of code that took ~15 ms to import) when
 * the first schema TypeBox's compiler cannot compile needs it, instead of at every import of
 * the runtime; most processes never need it. Ajv is CommonJS, so a synchronous `require` can
 * load it there and `compileJsonSchema` stays synchronous.
 *
 * The CLI's bundle replaces this module with one that requires the copy of Ajv it ships
 * beside its chunks (`packages/cli/scripts/lazy-ajv.mjs`), and so does the tool host's
 * (`packages/loader/scripts/bundle-tool-host.mjs`): keep the exports' names and shapes.
 */
export function loadAjv(): typeof AjvModule {
  return createRequire(import.meta.url)("ajv") as typeof AjvModule;
}

/**
 * Loads Ajv's JSON Schema 2020-12 class, for a schema that says `"$schema":
 * "https://json-schema.org/draft/2020-12/schema"` (MCP's default dialect): the draft-07 class
 * refuses that meta-schema and reads `prefixItems`, `items` and `$dynamicRef` by the older rules.
 */
export function loadAjv2020(): typeof Ajv2020Module {
  return createRequire(import.meta.url)("ajv/dist/2020") as typeof Ajv2020Module;
}

/**
 * Loads re2js (~260 KB), the linear-time engine Ajv checks patterns with, with Ajv and for the
 * same reason: only a schema with a `pattern` needs it. Its CommonJS build, for a synchronous
 * `require`.
 */
export function loadRe2(): typeof Re2Module {
  return createRequire(import.meta.url)("re2js") as typeof Re2Module;
}

/**
 * Loads the string formats of ajv-formats (`email`, `uri`, `date-time`, `uuid`, …: its
 * `fullFormats`, plain checks that need nothing of Ajv) with Ajv, for a schema with a `format`.
 */
export function loadFormats(): typeof FormatsModule {
  return createRequire(import.meta.url)("ajv-formats/dist/formats") as typeof FormatsModule;
}
