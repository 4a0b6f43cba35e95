import { join } from "node:path";
import type { CliIo } from "../src/cli-io.js";
import { tempDir } from "./cli-process.js";

/** An in-memory {@link CliIo} rooted at `cwd`: what the CLI wrote, split by stream. */
export function memoryIo(cwd: string, env: Record<string, string | undefined> = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = {
    stdout: { write: (chunk: string) => stdout.push(chunk) },
    stderr: { write: (chunk: string) => stderr.push(chunk) },
    cwd,
    env: { NO_COLOR: "1", ...env },
  };
  return { io, stdout: () => stdout.join(""), stderr: () => stderr.join("") };
}

/**
 * A temporary working folder seeded with files ({@link tempDir}), with its own compile cache
 * inside it (so a test writes nothing anywhere else); `remove()` deletes it.
 */
export async function workFolder(files: Record<string, string> = {}) {
  const folder = await tempDir(files);
  return {
    ...folder,
    /** `TOOLDOCK_CACHE_DIR` inside the folder: pass it in the env of every run. */
    env: { TOOLDOCK_CACHE_DIR: join(folder.path, ".tooldock-cache") },
  };
}
