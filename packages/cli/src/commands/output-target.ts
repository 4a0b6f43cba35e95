import { realpath, stat } from "node:fs/promises";
import { basename, extname, resolve } from "node:path";
import { UsageError } from "../args/usage-error.js";
import { escapeTerminalText } from "../output/terminal-text.js";

/**
 * Names of the manifests and configurations a load reads (a package's `tooldock`/`pi`/`omp`
 * fields, compiler settings): a report never needs one of these names, and writing it there
 * destroyed the manifest `validate` had just read.
 */
const READ_CONFIG = /^(?:package\.json|(?:ts|js)config(?:\..+)?\.json|deno\.jsonc?)$/i;

/** Extensions of source files a report must never replace, whether tooldock loaded them or not. */
const SOURCE_EXTENSIONS: readonly string[] = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

interface Identity {
  real: string;
  dev: number;
  ino: number;
  directory: boolean;
  regular: boolean;
}

async function identify(path: string): Promise<Identity | undefined> {
  try {
    const [real, stats] = await Promise.all([realpath(path), stat(path)]);
    return { real, dev: stats.dev, ino: stats.ino, directory: stats.isDirectory(), regular: stats.isFile() };
  } catch {
    return undefined;
  }
}

const same = (a: Identity, b: Identity) => a.real === b.real || (a.dev === b.dev && a.ino === b.ino);

function refuse(file: string, what: string): never {
  throw new UsageError(
    `--output ${escapeTerminalText(file)} ${what}; writing the report there would overwrite it. ` +
      "Nothing was written: give a new file for the report, such as reports/tooldock.xml.",
    "validate",
  );
}

/**
 * Refuses (a `UsageError`, exit code 2) an `--output` the report must not be written to: a
 * folder, a FIFO or device, an existing `package.json` or `tsconfig*.json` (what a load reads),
 * an input path or a module tooldock discovered (the same file by real path or by
 * device and inode, so a symbolic or hard link to it counts), or any existing source file.
 * Without `modules` (before loading), only the folder, file type and input checks run.
 * `validate x.ts --format junit --output x.ts` used to replace the module with XML.
 */
export async function assertOutputTarget(
  file: string,
  cwd: string,
  inputs: readonly string[],
  modules?: readonly { path: string; resolvedPath: string }[],
): Promise<void> {
  // An empty path would name the working folder itself ("--output  is a folder").
  if (file.trim() === "")
    throw new UsageError(
      "--output needs a file path for the report, such as reports/tooldock.xml.",
      "validate",
    );
  const target = await identify(resolve(cwd, file));
  if (target === undefined) return;
  if (target.directory) refuse(file, "is a folder");
  if (!target.regular) refuse(file, "is not a regular file (a FIFO, a socket or a device)");
  if (READ_CONFIG.test(basename(target.real)))
    refuse(file, "is a package manifest or a compiler configuration");
  for (const input of inputs) {
    const identity = await identify(resolve(cwd, input));
    if (identity !== undefined && same(identity, target))
      refuse(file, `is the input ${escapeTerminalText(input)}`);
  }
  // Before the load (no modules yet), only what the command line names is checked.
  if (modules === undefined) return;
  const candidates = [...new Set(modules.flatMap((module) => [module.path, module.resolvedPath]))];
  const identities = await Promise.all(candidates.map((path) => identify(resolve(cwd, path))));
  const index = identities.findIndex((identity) => identity !== undefined && same(identity, target));
  if (index !== -1) refuse(file, `is the tool module ${escapeTerminalText(candidates[index] ?? "")}`);
  if (SOURCE_EXTENSIONS.includes(extname(target.real).toLowerCase()))
    refuse(file, "is an existing source file");
}
