import { isAbsolute, join, resolve } from "node:path";
import { checkPrivateFolder, defaultUserFolder, ensurePrivateFolder } from "@tooldock/runtime";
import type { AstEditFileSystem } from "./file-system.js";
import { loadJournalKey } from "./journal-key.js";

/** The folder, below the state folder, that holds every apply journal of this user. */
export const JOURNAL_FOLDER_NAME = "ast-edit-journals";

/** A journal folder checked private, with the key that signs its journals. */
export interface JournalFolder {
  folder: string;
  key: Buffer;
}

/** What {@link openJournalFolder} found. */
export type JournalFolderOpening =
  | ({ kind: "ready" } & JournalFolder)
  /** There is no journal folder yet (only when not asked to create it): nothing to recover. */
  | { kind: "absent"; folder: string }
  /** The folder (or its key) is not private to this user: `reason` ends with what to do. */
  | { kind: "unsafe"; folder: string; reason: string };

/**
 * The state folder `ast_edit` keeps its journals under: `stateDirectory` when given, else
 * `TOOLDOCK_STATE_DIR` (when absolute), else the per-user state folder
 * (`$XDG_STATE_HOME/tooldock`, else `~/.local/state/tooldock`).
 */
export function resolveStateDirectory(stateDirectory?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (stateDirectory !== undefined) return resolve(stateDirectory);
  const fromEnv = env.TOOLDOCK_STATE_DIR;
  if (fromEnv !== undefined && fromEnv !== "" && isAbsolute(fromEnv)) return resolve(fromEnv);
  return defaultUserFolder("state", env);
}

/**
 * Checks the journal folder `<stateDirectory>/ast-edit-journals` (and the folders up to
 * `stateDirectory`): each must be a real folder owned by this user and not writable by group
 * or others. With `create`, missing folders are made (mode 0700) and the key too (mode 0600).
 * Never throws.
 */
export async function openJournalFolder(
  fileSystem: AstEditFileSystem,
  stateDirectory: string,
  options: { create: boolean },
): Promise<JournalFolderOpening> {
  const folder = join(stateDirectory, JOURNAL_FOLDER_NAME);
  const check = options.create
    ? await ensurePrivateFolder(folder, stateDirectory)
    : await checkPrivateFolder(folder, stateDirectory);
  if (!check.ok) {
    if (!options.create && check.reason === "does not exist") return { kind: "absent", folder };
    return {
      kind: "unsafe",
      folder,
      reason:
        `${check.folder} ${check.reason}. Make it a folder of your own that only you can write to ` +
        `(chmod 700), or point TOOLDOCK_STATE_DIR at one`,
    };
  }
  const key = await loadJournalKey(fileSystem, folder, options.create);
  if (key.kind === "absent") return { kind: "absent", folder };
  if (key.kind === "unsafe") return { kind: "unsafe", folder, reason: key.reason };
  return { kind: "ready", folder, key: key.key };
}
