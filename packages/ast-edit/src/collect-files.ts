import { join, relative, resolve, sep } from "node:path";
import type { Lang } from "@ast-grep/napi";
import { AstEditError } from "./ast-edit-error.js";
import type { AstEditFileSystem } from "./file-system.js";
import { createGlobMatcher } from "./glob.js";
import { isInsideFolder } from "./inside-folder.js";
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
  /** Checked at each directory of the walk. */
  signal?: AbortSignal | undefined;
}

/** What {@link collectFiles} found: the files, and the real path of `cwd` it checked them against. */
export interface CollectedFiles {
  files: SourceFile[];
  realCwd: string;
  /** Symbolic links a directory walk met and did not follow that would have been searched. */
  links: string[];
}

/**
 * The files an `ast_edit` call covers, sorted by path, and the real path of `cwd`. A directory is walked recursively,
 * skipping {@link SKIPPED_DIRECTORIES}, symbolic links (those it would have searched are
 * listed in `links`) and anything that is not a regular file (FIFOs, sockets, devices); a file
 * is taken as given, by its real path.
 *
 * @throws {AstEditError} `E_AST_EDIT_PATH` when `path` leaves `cwd` (also through a symbolic
 *   link), does not exist, is neither a directory nor a regular file, or is a file whose
 *   language cannot be inferred without `lang`.
 */
export async function collectFiles(
  fileSystem: AstEditFileSystem,
  options: CollectFilesOptions,
): Promise<CollectedFiles> {
  const cwd = resolve(options.cwd);
  const given = options.path ?? ".";
  const target = resolve(cwd, given);
  const outside = `path "${given}" is outside the working directory ${cwd}. Pass a path inside it (relative to it), or leave path out to search the whole directory.`;
  if (!isInsideFolder(cwd, target)) throw new AstEditError("E_AST_EDIT_PATH", outside);

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
  const realCwd = await fileSystem.realpath(cwd);
  if (!isInsideFolder(realCwd, realTarget)) throw new AstEditError("E_AST_EDIT_PATH", outside);

  const stats = await fileSystem.stat(realTarget);
  if (!stats.isDirectory() && !stats.isFile()) {
    throw new AstEditError(
      "E_AST_EDIT_PATH",
      `path "${given}" is not a regular file or a directory (a FIFO, socket or device); ast_edit never opens those. Pass a source file or a directory.`,
    );
  }
  if (!stats.isDirectory()) {
    const language = options.language ?? languageFromPath(target);
    if (language === undefined) {
      throw new AstEditError(
        "E_AST_EDIT_PATH",
        `Cannot tell the language of "${given}" from its extension. Pass lang (one of ${SUPPORTED_LANGUAGE_NAMES.join(", ")}).`,
      );
    }
    return {
      files: [{ absolutePath: realTarget, relativePath: toRelative(realCwd, realTarget), language }],
      realCwd,
      links: [],
    };
  }

  const matchesGlob = options.glob ? createGlobMatcher(options.glob) : () => true;
  const files: SourceFile[] = [];
  const links: string[] = [];
  const walk = async (directory: string): Promise<void> => {
    options.signal?.throwIfAborted();
    const entries = await fileSystem.readdir(directory, { withFileTypes: true });
    for (const entry of entries) {
      const absolutePath = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.includes(entry.name)) await walk(absolutePath);
        continue;
      }
      // Only regular files: a FIFO, socket or device is never opened, a link never followed.
      if (!entry.isFile() && !entry.isSymbolicLink()) continue;
      const language = languageFromPath(entry.name);
      if (language === undefined || (options.language !== undefined && language !== options.language))
        continue;
      const relativePath = toRelative(cwd, absolutePath);
      if (!matchesGlob(relativePath)) continue;
      if (entry.isSymbolicLink()) links.push(relativePath);
      else files.push({ absolutePath, relativePath, language });
    }
  };
  await walk(target);
  const byPath = (left: string, right: string) => (left < right ? -1 : 1);
  files.sort((left, right) => byPath(left.relativePath, right.relativePath));
  return { files, realCwd, links: links.sort(byPath) };
}

function toRelative(cwd: string, absolutePath: string): string {
  return relative(cwd, absolutePath).split(sep).join("/") || ".";
}
