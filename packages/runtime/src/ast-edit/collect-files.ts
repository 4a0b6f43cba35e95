import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Lang } from "@ast-grep/napi";
import { AstEditError } from "./ast-edit-error.js";
import type { AstEditFileSystem } from "./file-system.js";
import { createGlobMatcher } from "./glob.js";
import { languageFromPath, SUPPORTED_LANGUAGE_NAMES } from "./languages.js";
import { SKIPPED_DIRECTORIES } from "./skipped-directories.js";

/** A file `ast_edit` will parse. */
export interface SourceFile {
  absolutePath: string;
  /** Relative to `cwd`, with `/`: how the file is named in results and diffs. */
  relativePath: string;
  language: Lang;
}

export interface CollectFilesOptions {
  cwd: string;
  /** File or directory, relative to `cwd`. Default: `cwd`. */
  path?: string | undefined;
  /** Only files matching this glob (directory walks only). */
  glob?: string | undefined;
  /** Parse every file as this language; in a directory, only files of this language are read. */
  language?: Lang | undefined;
}

/**
 * The files an `ast_edit` call covers, sorted by path. A directory is walked recursively,
 * skipping {@link SKIPPED_DIRECTORIES} and symbolic links; a file is taken as given.
 *
 * @throws {AstEditError} `E_AST_EDIT_PATH` when `path` leaves `cwd` (also through a symbolic
 *   link), does not exist, or is a file whose language cannot be inferred without `lang`.
 */
export async function collectFiles(
  fileSystem: AstEditFileSystem,
  options: CollectFilesOptions,
): Promise<SourceFile[]> {
  const cwd = resolve(options.cwd);
  const given = options.path ?? ".";
  const target = resolve(cwd, given);
  const outside = `path "${given}" is outside the working directory ${cwd}. Pass a path inside it (relative to it), or leave path out to search the whole directory.`;
  if (!isInside(cwd, target)) throw new AstEditError("E_AST_EDIT_PATH", outside);

  let realTarget: string;
  try {
    realTarget = await fileSystem.realpath(target);
  } catch (error) {
    throw new AstEditError(
      "E_AST_EDIT_PATH",
      `path "${given}" does not exist in ${cwd}. Pass an existing file or directory relative to it.`,
      { cause: error },
    );
  }
  if (!isInside(await fileSystem.realpath(cwd), realTarget))
    throw new AstEditError("E_AST_EDIT_PATH", outside);

  const stats = await fileSystem.stat(target);
  if (!stats.isDirectory()) {
    const language = options.language ?? languageFromPath(target);
    if (language === undefined) {
      throw new AstEditError(
        "E_AST_EDIT_PATH",
        `Cannot tell the language of "${given}" from its extension. Pass lang (one of ${SUPPORTED_LANGUAGE_NAMES.join(", ")}).`,
      );
    }
    return [{ absolutePath: target, relativePath: toRelative(cwd, target), language }];
  }

  const matchesGlob = options.glob ? createGlobMatcher(options.glob) : () => true;
  const files: SourceFile[] = [];
  const walk = async (directory: string): Promise<void> => {
    const entries = await fileSystem.readdir(directory, { withFileTypes: true });
    for (const entry of entries) {
      const absolutePath = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.includes(entry.name)) await walk(absolutePath);
        continue;
      }
      if (!entry.isFile()) continue;
      const language = languageFromPath(entry.name);
      if (language === undefined || (options.language !== undefined && language !== options.language))
        continue;
      const relativePath = toRelative(cwd, absolutePath);
      if (matchesGlob(relativePath)) files.push({ absolutePath, relativePath, language });
    }
  };
  await walk(target);
  return files.sort((left, right) => (left.relativePath < right.relativePath ? -1 : 1));
}

function isInside(root: string, candidate: string): boolean {
  const path = relative(root, candidate);
  return path === "" || (!path.startsWith(`..${sep}`) && path !== ".." && !isAbsolute(path));
}

function toRelative(cwd: string, absolutePath: string): string {
  return relative(cwd, absolutePath).split(sep).join("/") || ".";
}
