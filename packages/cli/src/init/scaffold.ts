import { mkdir, readdir, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { RESOLVE_TOOL_NAME } from "@tooldock/runtime";
import { UsageError } from "../args/usage-error.js";
import { BUILT_IN_TOOL_NAMES } from "../load/built-in-tools.js";
import { localTarballSpecs } from "./local-tarballs.js";
import { type ScaffoldNames, scaffoldNames } from "./scaffold-names.js";
import { assertScaffoldTarget } from "./scaffold-target.js";
import {
  GITIGNORE_TEMPLATE,
  packageJsonTemplate,
  readmeTemplate,
  SCAFFOLD_TOOLDOCK_PACKAGES,
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
 * Why a tool may not be called `name`, or undefined when it may: `resolve` is the hidden tool
 * of pending actions and the built-ins are the CLI's own; the loader refuses both.
 */
export function reservedToolNameReason(name: string): string | undefined {
  if (name === RESOLVE_TOOL_NAME) {
    return `"${name}" is reserved: it is the hidden tool that applies or discards pending actions, and hosts refuse a tool of that name`;
  }
  if (BUILT_IN_TOOL_NAMES.includes(name)) {
    return `"${name}" is reserved: it is a built-in tool of tooldock, and a tool of that name would be refused when loaded`;
  }
  return undefined;
}

/** The longest tool name every provider takes (Gemini's limit; `W_PROVIDER_NAME` beyond it). */
const MAX_TOOL_NAME_LENGTH = 63;

/**
 * Why `--name` cannot become a tool name as written, or undefined: words of ASCII letters and
 * digits (spaces, `-` and `_` between them become `_`), not starting with a digit. Anything
 * else would be dropped from the name without a word (`ünï` would become `n`).
 */
function givenNameProblem(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (/[^A-Za-z0-9 _-]/.test(name))
    return `--name ${name} holds characters a tool name cannot: only ASCII letters, digits, spaces, - and _`;
  if (/^[\s_-]*[0-9]/.test(name))
    return `--name ${name} starts with a digit: a tool name starts with a letter or _`;
  return undefined;
}

/**
 * Why the folder's name cannot give the package's name (and the tool's, without `--name`) as
 * written, or undefined: letters outside ASCII would be dropped without a word (`ünï` would
 * give the package and the tool `n`), and a leading digit would be dropped from the tool name.
 */
function folderNameProblem(folder: string, toolNamed: boolean): string | undefined {
  if ([...folder].some((character) => character.charCodeAt(0) > 0x7f))
    return `the folder name ${folder} holds characters an npm package name cannot (only ASCII letters, digits, - and _ are kept). Choose another folder name.`;
  if (!toolNamed && /^[^A-Za-z0-9]*[0-9]/.test(folder))
    return `the folder name ${folder} starts with a digit, and a tool name cannot. Give the tool's name with --name.`;
  return undefined;
}

/**
 * Writes a publishable tool package into `directory` (created when missing). Refuses a
 * folder that is not empty, so nothing is ever overwritten, and a reserved tool name. With
 * `from` (a folder of tarballs), the Tooldock dev dependencies are `file:` specs on them.
 */
export async function scaffoldToolPackage(options: {
  directory: string;
  cwd: string;
  toolName?: string;
  version: string;
  /** A folder of Tooldock tarballs (`tooldock init --from`). */
  from?: string;
}): Promise<ScaffoldResult> {
  const directory = resolve(options.cwd, options.directory);
  const given = givenNameProblem(options.toolName);
  if (given !== undefined) throw new UsageError(`${given}. Give another name with --name.`, "init");
  const folderProblem = folderNameProblem(basename(directory), options.toolName !== undefined);
  if (folderProblem !== undefined) throw new UsageError(folderProblem, "init");
  const names = scaffoldNames(basename(directory), options.toolName);
  const reserved = reservedToolNameReason(names.toolName);
  if (reserved !== undefined) {
    throw new UsageError(
      `cannot scaffold a tool named ${names.toolName}: ${reserved}. Give another name with --name.`,
      "init",
    );
  }
  // The scaffold must pass `tooldock validate --strict`, whose provider check allows 63.
  if (names.toolName.length > MAX_TOOL_NAME_LENGTH) {
    throw new UsageError(
      `cannot scaffold a tool named ${names.toolName}: ${names.toolName.length} characters, and providers take at most ${MAX_TOOL_NAME_LENGTH} (Gemini). Give a shorter name with --name.`,
      "init",
    );
  }
  const localPackages =
    options.from === undefined
      ? {}
      : await localTarballSpecs({
          from: options.from,
          cwd: options.cwd,
          directory,
          packages: SCAFFOLD_TOOLDOCK_PACKAGES,
          version: options.version,
        });
  await assertScaffoldTarget(directory, options.directory);
  const existing = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw new UsageError(`cannot use ${options.directory}: ${error.message}`, "init");
  });
  if (existing.length > 0) {
    throw new UsageError(`${options.directory} is not empty; give a new or empty folder`, "init");
  }
  const files: Array<[string, string]> = [
    ["package.json", packageJsonTemplate(names, options.version, localPackages)],
    [`tools/${names.fileStem}.ts`, toolTemplate(names)],
    [`test/${names.fileStem}.test.ts`, testTemplate(names)],
    ["tsconfig.json", tsconfigTemplate()],
    ["README.md", readmeTemplate(names)],
    [".gitignore", GITIGNORE_TEMPLATE],
  ];
  for (const [path, content] of files) {
    try {
      await mkdir(join(directory, path, ".."), { recursive: true });
      await writeFile(join(directory, path), content, { flag: "wx" });
    } catch (error) {
      // Not writable, read only, full: the user's to fix, not a bug of tooldock's.
      throw new UsageError(
        `cannot write ${join(options.directory, path)}: ${(error as Error).message}. Give a folder you can write to.`,
        "init",
      );
    }
  }
  return { directory, names, files: files.map(([path]) => path) };
}
