import { loadFormats } from "./load-ajv.js";

/**
 * Of `formats` (a schema's, see `ToolSchema.formats`), those ajv-formats does not know, so
 * nothing checks them, sorted; ajv-formats is loaded only when there are formats at all.
 */
export function unknownFormats(formats: ReadonlySet<string>): string[] {
  if (formats.size === 0) return [];
  const known = loadFormats().fullFormats as Record<string, unknown>;
  return [...formats].filter((format) => !Object.hasOwn(known, format)).sort();
}
