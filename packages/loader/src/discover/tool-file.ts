import { basename, extname } from "node:path";

/** Extensions of top-level files in a tool directory that are loaded as tool modules. */
export const TOOL_MODULE_EXTENSIONS: readonly string[] = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"];

/** File names a subfolder of a tool directory may use as its entry, in order of preference. */
export const SUBFOLDER_INDEX_FILES: readonly string[] = ["index.ts", "index.mts", "index.js", "index.mjs"];

/**
 * True when a file found in a tool directory is a tool module: a listed extension, and not a
 * declaration file, a test (`*.test.*`, `*.spec.*`) or hidden.
 */
export function isToolModuleFile(path: string): boolean {
  const name = basename(path);
  if (name.startsWith(".")) return false; // hidden
  if (!TOOL_MODULE_EXTENSIONS.includes(extname(name))) return false;
  if (/\.d\.[cm]?ts$/.test(name)) return false;
  return !/\.(test|spec)\.[^.]+$/.test(name);
}

/** A metadata file (`.md`, `.json`): never executed, `E_NOT_EXECUTABLE` when given as a module. */
export function isMetadataFile(path: string): boolean {
  return [".md", ".json"].includes(extname(path).toLowerCase());
}
