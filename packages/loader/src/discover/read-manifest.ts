import { join } from "node:path";
import { type DiscoveryFileSystem, nodeDiscoveryFileSystem } from "./file-system.js";

/** Fields of `package.json` that may list tool entries, in order of precedence. */
export const MANIFEST_FIELDS: readonly string[] = ["tooldock", "omp", "pi"];

/** What a directory's `package.json` says about its tools. */
export type ManifestResult =
  | { kind: "none" }
  | {
      kind: "tools";
      field: string;
      /** Each listed path, with the key that listed it (`"pi.tools"`, `"omp.install"`). */
      entries: Array<{ path: string; key: string }>;
      /** Keys of the field that list no tools (`"pi.skills"`): ignored, each one warning. */
      ignored: string[];
    }
  | { kind: "invalid"; reason: string; hint: string };

/** The keys of a manifest field that list tools. */
const TOOL_KEYS = ["tools", "extensions", "features", "install"];

/** Where oh-my-pi's `install` entries put a tool: a `dest` under it makes `src` a tool entry. */
const INSTALLED_TOOLS = /^(?:\.\/)?agent\/tools\//;

/**
 * Reads `<dir>/package.json` and returns the tool entries of its first `tooldock`, `omp` or
 * `pi` field that is an object. `tools` is a path or an array of paths (files or folders,
 * relative to the package); `extensions` (pi's extension packages, since 2026-01) the same,
 * after them; each feature with `default: true` adds its own `tools` after those, then each
 * `install` entry (`{ src, dest }`, oh-my-pi's first plugin manifest) whose `dest` is under
 * `agent/tools/` adds its `src`. Any other key of the field is listed in `ignored`. A
 * directory without `package.json`, or whose manifest has none of these fields, is `none`
 * (scanned like any directory).
 */
export async function readToolManifest(
  directory: string,
  fileSystem: DiscoveryFileSystem,
): Promise<ManifestResult> {
  const manifestPath = join(directory, "package.json");
  let text: string;
  try {
    // Discovery asks only for a folder whose package.json it saw (`mayHaveManifest`).
    text = await fileSystem.readFile(manifestPath);
  } catch {
    return { kind: "none" };
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    return invalid(
      `its package.json is not valid JSON (${(error as Error).message})`,
      "Fix the syntax of package.json; it must be valid JSON.",
    );
  }
  if (!isObject(manifest)) return { kind: "none" };
  for (const field of MANIFEST_FIELDS) {
    const section = manifest[field];
    if (!isObject(section)) continue;
    // `"tooldock": {}` without tools is no manifest; a pi or oh-my-pi field is one whatever it
    // holds (a package of skills or themes has no tools, and none of its files is a module).
    const keys = Object.keys(section);
    if (field === "tooldock" && !keys.some((key) => TOOL_KEYS.includes(key))) continue;
    const ignored = keys.filter((key) => !TOOL_KEYS.includes(key)).map((key) => `${field}.${key}`);
    const entries: Array<{ path: string; key: string }> = [];
    const add = (paths: string[], key: string) => entries.push(...paths.map((path) => ({ path, key })));
    for (const key of ["tools", "extensions"]) {
      if (!(key in section)) continue;
      const paths = toolPaths(section[key]);
      if (paths === undefined) return invalidTools(`${field}.${key}`, field);
      add(paths, `${field}.${key}`);
    }
    if ("features" in section) {
      const features = section.features;
      if (!isObject(features)) {
        return invalid(
          `"${field}.features" in its package.json is not an object of features`,
          `Write "${field}": { "features": { "name": { "default": true, "tools": "tools/name" } } }.`,
        );
      }
      for (const [name, feature] of Object.entries(features)) {
        if (!isObject(feature)) {
          return invalid(
            `feature "${name}" in "${field}.features" of its package.json is not an object`,
            `Write "${name}": { "default": true, "tools": "tools/${name}" }.`,
          );
        }
        const { default: enabled, tools } = feature;
        if (enabled !== true || tools === undefined) continue;
        const paths = toolPaths(tools);
        if (paths === undefined) return invalidTools(`${field}.features.${name}.tools`, field);
        add(paths, `${field}.features.${name}.tools`);
      }
    }
    if ("install" in section) {
      const installed = installedTools(section.install);
      if (installed === undefined) {
        return invalid(
          `"${field}.install" in its package.json is not an array of { "src", "dest" } paths`,
          `Write "${field}": { "install": [{ "src": "tools/name/index.ts", "dest": "agent/tools/name/index.ts" }] }.`,
        );
      }
      add(installed, `${field}.install`);
    }
    return { kind: "tools", field, entries, ignored };
  }
  return { kind: "none" };
}

/**
 * The `src` of each `install` entry whose `dest` is under `agent/tools/` (other entries install
 * commands, themes or hooks: not tools); `undefined` when `install` is not an array of
 * `{ src, dest }` strings.
 */
function installedTools(install: unknown): string[] | undefined {
  if (!Array.isArray(install)) return undefined;
  const sources: string[] = [];
  for (const entry of install) {
    if (typeof entry !== "object" || entry === null) return undefined;
    const { src, dest } = entry as { src?: unknown; dest?: unknown };
    if (typeof src !== "string" || src.length === 0 || typeof dest !== "string") return undefined;
    if (INSTALLED_TOOLS.test(dest)) sources.push(src);
  }
  return sources;
}

/** A path, or an array of paths, as a list; `undefined` for anything else. */
function toolPaths(tools: unknown): string[] | undefined {
  if (typeof tools === "string") return tools.length > 0 ? [tools] : undefined;
  if (!Array.isArray(tools) || !tools.every((entry) => typeof entry === "string" && entry.length > 0))
    return undefined;
  return tools as string[];
}

function invalidTools(where: string, field: string): ManifestResult {
  return invalid(
    `"${where}" in its package.json is neither a path nor an array of paths`,
    `Write "${field}": { "tools": "tools" } or { "tools": ["./src/my-tool.ts", "./more-tools"] }, with paths of files or folders relative to the package.`,
  );
}

function invalid(reason: string, hint: string): ManifestResult {
  return { kind: "invalid", reason, hint };
}

/** An object that is not an array (a manifest field, `features`, a feature). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * True when `<dir>/package.json` has a `tooldock` field with `tools`, `extensions`,
 * `features` or `install`, or an `omp` or `pi` field (an object), valid or not (loading the directory then reports what is wrong with it).
 *
 * @example
 * ```ts
 * if (await hasToolManifest(process.cwd())) paths.push(".");
 * ```
 */
export async function hasToolManifest(
  directory: string,
  fileSystem: DiscoveryFileSystem = nodeDiscoveryFileSystem,
): Promise<boolean> {
  return (await readToolManifest(directory, fileSystem)).kind !== "none";
}
