import { join } from "node:path";
import { type DiscoveryFileSystem, nodeDiscoveryFileSystem } from "./file-system.js";

/** Fields of `package.json` that may list tool entries, in order of precedence. */
export const MANIFEST_FIELDS: readonly string[] = ["tooldock", "omp", "pi"];

/** What a directory's `package.json` says about its tools. */
export type ManifestResult =
  | { kind: "none" }
  | { kind: "tools"; field: string; entries: string[] }
  | { kind: "invalid"; reason: string; hint: string };

/**
 * Reads `<dir>/package.json` and returns the tool entries of its first `tooldock`, `omp` or
 * `pi` field that has `tools`. A directory without `package.json`, or whose manifest has none
 * of these fields, is `none` (scanned like any directory).
 */
export async function readToolManifest(
  directory: string,
  fileSystem: DiscoveryFileSystem,
): Promise<ManifestResult> {
  const manifestPath = join(directory, "package.json");
  let text: string;
  try {
    // Most scanned folders have no package.json: a synchronous check spares each of them a
    // failing asynchronous read.
    if (fileSystem.statIfExists(manifestPath) === undefined) return { kind: "none" };
    text = await fileSystem.readFile(manifestPath);
  } catch {
    return { kind: "none" };
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    return {
      kind: "invalid",
      reason: `its package.json is not valid JSON (${(error as Error).message})`,
      hint: "Fix the syntax of package.json; it must be valid JSON.",
    };
  }
  if (typeof manifest !== "object" || manifest === null) return { kind: "none" };
  for (const field of MANIFEST_FIELDS) {
    const section = (manifest as Record<string, unknown>)[field];
    if (typeof section !== "object" || section === null || !("tools" in section)) continue;
    const tools = (section as { tools: unknown }).tools;
    if (!Array.isArray(tools) || !tools.every((entry) => typeof entry === "string" && entry.length > 0)) {
      return {
        kind: "invalid",
        reason: `"${field}.tools" in its package.json is not an array of paths`,
        hint: `Write "${field}": { "tools": ["./src/my-tool.ts"] } with paths relative to the package.`,
      };
    }
    return { kind: "tools", field, entries: tools as string[] };
  }
  return { kind: "none" };
}

/**
 * True when `<dir>/package.json` has a `tooldock`, `omp` or `pi` field with `tools`, valid or
 * not (loading the directory then reports what is wrong with it).
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
