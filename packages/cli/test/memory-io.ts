import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CliIo } from "../src/cli-io.js";

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
 * A temporary working folder seeded with files, with its own compile cache inside it (so a
 * test writes nothing anywhere else); `remove()` deletes it.
 */
export async function workFolder(files: Record<string, string> = {}) {
  const path = await mkdtemp(join(tmpdir(), "tooldock-cli-test-"));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(path, name)), { recursive: true });
    await writeFile(join(path, name), content);
  }
  return {
    path,
    /** `TOOLDOCK_CACHE_DIR` inside the folder: pass it in the env of every run. */
    env: { TOOLDOCK_CACHE_DIR: join(path, ".tooldock-cache") },
    remove: () => rm(path, { recursive: true, force: true }),
  };
}
