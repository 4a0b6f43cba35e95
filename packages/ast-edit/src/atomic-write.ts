import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { AstEditFileSystem } from "./file-system.js";

/** Marks the temporary files `ast_edit` creates (and removes on failure or at the next start). */
export const TEMPORARY_FILE_MARKER = ".tooldock-tmp";

/**
 * The exact name of a temporary file {@link temporaryPathFor} makes:
 * `.<name>.<12 hex digits>.tooldock-tmp`. The recovery sweep removes only files named so.
 */
export const TEMPORARY_FILE_NAME: RegExp = /^\..+\.[0-9a-f]{12}\.tooldock-tmp$/;

/** A fresh temporary path beside `path`: `.<name>.<random>.tooldock-tmp` in the same directory. */
export function temporaryPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}${TEMPORARY_FILE_MARKER}`);
}

/** Options of {@link writeFileAtomic} and {@link writeTemporaryFile}. */
export interface AtomicWriteOptions {
  /** Permission bits of the new file. Default: those of `path` when it exists, else the umask's. */
  mode?: number;
}

/**
 * Replaces `path` with `content` so that readers see the old file or the new one, never a
 * half-written one: the text goes to a temporary file in the same directory, which is
 * flushed to disk (`fsync`) and then renamed over `path`. The file's permission bits are kept
 * (or set to `options.mode`). On any failure the temporary file is removed and the error is
 * rethrown; `path` is untouched.
 */
export async function writeFileAtomic(
  fileSystem: AstEditFileSystem,
  path: string,
  content: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const temporaryPath = temporaryPathFor(path);
  await writeTemporaryFile(fileSystem, path, temporaryPath, content, options);
  try {
    await fileSystem.rename(temporaryPath, path);
  } catch (error) {
    await fileSystem.rm(temporaryPath, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(fileSystem, dirname(path));
}

/**
 * Writes `content` to the new file `temporaryPath` (which must not exist), with the permission
 * bits of `options.mode`, else of `path` when it exists, and flushes it to disk. On failure
 * the temporary file is removed and the error rethrown.
 */
export async function writeTemporaryFile(
  fileSystem: AstEditFileSystem,
  path: string,
  temporaryPath: string,
  content: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const mode =
    options.mode ??
    (await fileSystem.stat(path).then(
      (stats) => stats.mode & 0o7777,
      () => undefined,
    ));
  let handle: FileHandle | undefined;
  try {
    // `wx`: created here, never an existing file or a symbolic link put in its place.
    handle = await fileSystem.open(temporaryPath, "wx", options.mode ?? 0o666);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(content, "utf8");
    await handle.sync();
    await handle.close();
    handle = undefined;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fileSystem.rm(temporaryPath, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Opens only a directory, and never blocks: a FIFO put in place of the directory is not
 * waited on (`O_NONBLOCK`) and fails to open (`O_DIRECTORY`). Flags a platform lacks are 0.
 */
const DIRECTORY_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Flushes renames in `directory` to disk. Best effort: not every platform can open a directory. */
export async function syncDirectory(fileSystem: AstEditFileSystem, directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await fileSystem.open(directory, DIRECTORY_FLAGS);
    await handle.sync();
  } catch {
    // Windows and some file systems refuse fsync on a directory; the rename has happened.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
