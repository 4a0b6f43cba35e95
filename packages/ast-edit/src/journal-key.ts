import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { AstEditFileSystem } from "./file-system.js";
import { readRegularFile } from "./read-regular-file.js";

/** The name of the key file in the journal folder. */
export const JOURNAL_KEY_NAME = "journal.key";
const KEY_BYTES = 32;
/** The key file: the key as hex digits and a line break. */
const KEY_TEXT = /^([0-9a-f]{64})\n$/;
/** Create only: never over an existing file, never through a symbolic link. */
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** What {@link loadJournalKey} found. */
export type JournalKeyLoad =
  | { kind: "ready"; key: Buffer }
  | { kind: "absent" }
  | { kind: "unsafe"; reason: string };

/**
 * The HMAC key that signs this user's apply journals: 32 random bytes, as hex, in
 * `<folder>/journal.key`, a regular file owned by this user with mode 0600. With `create`, a
 * missing key is made. A key file of this user that does not hold a whole key (a crash while
 * it was made) was never used to sign a journal: it counts as absent, and `create` replaces
 * it. Never throws.
 */
export async function loadJournalKey(
  fileSystem: AstEditFileSystem,
  folder: string,
  create: boolean,
): Promise<JournalKeyLoad> {
  const path = join(folder, JOURNAL_KEY_NAME);
  try {
    for (let attempt = 0; ; attempt++) {
      const read = await readRegularFile(fileSystem, path, { maxBytes: 4 * KEY_BYTES }).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return undefined;
          throw error;
        },
      );
      if (read?.kind === "refused") return unsafe(path, read.reason);
      if (read !== undefined) {
        const problem = privateFileProblem(read.stats);
        if (problem !== undefined) return unsafe(path, problem);
        const hex = KEY_TEXT.exec(read.bytes.toString("latin1"))?.[1];
        if (hex !== undefined) return { kind: "ready", key: Buffer.from(hex, "hex") };
      }
      if (!create) return { kind: "absent" };
      if (attempt > 0) return unsafe(path, "could not be made whole");
      if (read !== undefined) await fileSystem.rm(path, { force: true });
      await createKey(fileSystem, path);
    }
  } catch (error) {
    return unsafe(path, `cannot be read or made (${error instanceof Error ? error.message : String(error)})`);
  }
}

/**
 * Why a file is not private to this user: not owned by this user, or a mode other than 0600.
 * `undefined` when it is (always, where the platform has no user ids, as on Windows).
 */
export function privateFileProblem(stats: {
  uid: bigint | number;
  mode: bigint | number;
}): string | undefined {
  if (typeof process.getuid !== "function") return undefined;
  const uid = process.getuid();
  if (Number(stats.uid) !== uid) return `is owned by user id ${stats.uid}, not by you (user id ${uid})`;
  const mode = Number(stats.mode) & 0o777;
  if (mode !== 0o600) return `has mode ${mode.toString(8).padStart(3, "0")}, not 600`;
  return undefined;
}

/** Makes the key file; when another process made it first, keeps theirs (the caller reads it back). */
async function createKey(fileSystem: AstEditFileSystem, path: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await fileSystem.open(path, CREATE_FLAGS, 0o600);
    await handle.chmod(0o600);
    await handle.writeFile(`${randomBytes(KEY_BYTES).toString("hex")}\n`);
    await handle.sync();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function unsafe(path: string, problem: string): JournalKeyLoad {
  return {
    kind: "unsafe",
    reason: `the journal key ${path} ${problem}. Remove it (a new one is made on the next apply) or fix its owner and mode (chmod 600)`,
  };
}
