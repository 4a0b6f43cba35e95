import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

function temporaryPath(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
}

/**
 * Writes a file so that readers see the old content or the new one, never a part: the data
 * goes to a temporary file beside the target, which is then renamed over it.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = temporaryPath(path);
  try {
    await writeFile(temporary, content, "utf8");
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * {@link writeFileAtomic}, synchronously: for the many small files of a batch build, a few
 * system calls each instead of a thread-pool round trip per call.
 */
export function writeFileAtomicSync(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = temporaryPath(path);
  try {
    writeFileSync(temporary, content, "utf8");
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
