import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { UsageError } from "../args/usage-error.js";

const MANIFEST_FIELDS = ["tooldock", "omp", "pi"] as const;

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

async function hasToolManifest(directory: string): Promise<boolean> {
  try {
    const manifest = JSON.parse(await readFile(join(directory, "package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    return MANIFEST_FIELDS.some((field) => {
      const value = manifest[field] as { tools?: unknown } | undefined;
      return Array.isArray(value?.tools);
    });
  } catch {
    return false;
  }
}

/**
 * Where to load tools from when the command line names no path: `.tooldock/tools` under `cwd`
 * when it is a folder, and `cwd` itself when its package.json declares tools. Neither is bad
 * usage: the error says what was looked for.
 */
export async function defaultToolPaths(cwd: string, command: string): Promise<string[]> {
  const paths: string[] = [];
  if (await isDirectory(join(cwd, ".tooldock", "tools"))) paths.push(".tooldock/tools");
  if (await hasToolManifest(cwd)) paths.push(".");
  if (paths.length === 0) {
    throw new UsageError(
      `no tool paths given, and ${cwd} has neither .tooldock/tools nor a package.json with a "tooldock" field`,
      command,
    );
  }
  return paths;
}
