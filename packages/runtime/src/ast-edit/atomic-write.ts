import { randomBytes } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { AstEditFileSystem } from "./file-system.js";

/** Marks the temporary files {@link writeFileAtomic} creates (and removes on failure). */
export const TEMPORARY_FILE_MARKER = ".tooldock-tmp";

/**
 * Replaces `path` with `content` so that readers see the old file or the new one, never a
 * half-written one: the text goes to a temporary file in the same directory, which is
 * flushed to disk (`fsync`) and then renamed over `path`. The file's permission bits are kept.
 * On any failure the temporary file is removed and the error is rethrown; `path` is untouched.
 */
export async function writeFileAtomic(
  fileSystem: AstEditFileSystem,
  path: string,
  content: string,
): Promise<void> {
  const directory = dirname(path);
  const temporaryPath = join(
    directory,
    `.${basename(path)}.${randomBytes(6).toString("hex")}${TEMPORARY_FILE_MARKER}`,
  );
  const mode = await fileSystem.stat(path).then(
    (stats) => stats.mode & 0o7777,
    () => undefined,
  );
  let handle: FileHandle | undefined;
  try {
    handle = await fileSystem.open(temporaryPath, "wx");
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(content, "utf8");
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fileSystem.rename(temporaryPath, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fileSystem.rm(temporaryPath, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(fileSystem, directory);
}

/** Flushes the rename itself to disk. Best effort: not every platform can open a directory. */
async function syncDirectory(fileSystem: AstEditFileSystem, directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await fileSystem.open(directory, "r");
    await handle.sync();
  } catch {
    // Windows and some file systems refuse fsync on a directory; the rename has happened.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
