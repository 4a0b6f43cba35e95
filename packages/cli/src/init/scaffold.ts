import { mkdir, readdir, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { UsageError } from "../args/usage-error.js";
import { type ScaffoldNames, scaffoldNames } from "./scaffold-names.js";
import {
  GITIGNORE_TEMPLATE,
  packageJsonTemplate,
  readmeTemplate,
  testTemplate,
  toolTemplate,
  tsconfigTemplate,
} from "./scaffold-templates.js";

/** What {@link scaffoldToolPackage} wrote. */
export interface ScaffoldResult {
  directory: string;
  names: ScaffoldNames;
  /** Paths relative to `directory`, in writing order. */
  files: string[];
}

/**
 * Writes a publishable tool package into `directory` (created when missing). Refuses a
 * folder that is not empty, so nothing is ever overwritten.
 */
export async function scaffoldToolPackage(options: {
  directory: string;
  cwd: string;
  toolName?: string;
  version: string;
}): Promise<ScaffoldResult> {
  const directory = resolve(options.cwd, options.directory);
  const existing = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw new UsageError(`cannot use ${options.directory}: ${error.message}`, "init");
  });
  if (existing.length > 0) {
    throw new UsageError(`${options.directory} is not empty; give a new or empty folder`, "init");
  }
  const names = scaffoldNames(basename(directory), options.toolName);
  const files: Array<[string, string]> = [
    ["package.json", packageJsonTemplate(names, options.version)],
    [`tools/${names.fileStem}.ts`, toolTemplate(names)],
    [`test/${names.fileStem}.test.ts`, testTemplate(names)],
    ["tsconfig.json", tsconfigTemplate()],
    ["README.md", readmeTemplate(names)],
    [".gitignore", GITIGNORE_TEMPLATE],
  ];
  for (const [path, content] of files) {
    await mkdir(join(directory, path, ".."), { recursive: true });
    await writeFile(join(directory, path), content, { flag: "wx" });
  }
  return { directory, names, files: files.map(([path]) => path) };
}
