import { dirname } from "node:path";
import {
  ensurePrivateFolder,
  openPostgresJournal,
  openSqliteJournal,
  type PendingActionJournal,
  Session,
  type SessionOptions,
} from "@tooldock/runtime";
import type { StoreChoice } from "./store-option.js";

/** A `--store` opened: the choice and its journal (the command closes it). */
export type OpenStore = StoreChoice & { journal: PendingActionJournal };

/**
 * The store opened, or why it could not be (`E_PENDING_STORE`: a shared folder, no SQLite
 * driver, a PostgreSQL server that cannot be reached, …).
 */
export async function openStore(store: StoreChoice): Promise<{ store: OpenStore } | { error: string }> {
  try {
    if (store.kind === "postgres")
      return { store: { ...store, journal: await openPostgresJournal(store.url) } };
    // A missing folder is made private (0700); one that exists is checked, never changed.
    const folder = dirname(store.path);
    const made = await ensurePrivateFolder(folder, folder);
    if (!made.ok)
      return {
        error:
          `E_PENDING_STORE: the store's folder ${made.folder} ${made.reason}: the database holds ` +
          "what the next resolve applies, so its folder must be yours alone. Keep it in a folder only " +
          "you can write (e.g. --store sqlite:$HOME/.local/state/tooldock/pending.db).",
      };
    quietSqliteWarning();
    return { store: { ...store, journal: openSqliteJournal(store.path) } };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    return { error: `${typeof code === "string" ? `${code}: ` : ""}${message}` };
  }
}

/** A new session, or with `store` its session of that store, read back (`Session.open`). */
export function openSession(
  options: Omit<SessionOptions, "pending" | "sessionId">,
  store: Pick<OpenStore, "journal" | "sessionId"> | undefined,
): Promise<Session> {
  if (store === undefined) return Promise.resolve(new Session(options));
  return Session.open({ ...options, sessionId: store.sessionId, journal: store.journal });
}

let sqliteWarningQuiet = false;

/**
 * Drops Node 22's `ExperimentalWarning` for `node:sqlite` from this process (the CLI's own):
 * the driver is Tooldock's choice, not the user's, and the line read like a fault on every
 * command that opened a store. Every other warning is printed as before.
 */
function quietSqliteWarning(): void {
  if (sqliteWarningQuiet) return;
  sqliteWarningQuiet = true;
  const emit = process.emitWarning;
  process.emitWarning = function emitWarning(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === "string" ? warning : warning.message;
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if (type === "ExperimentalWarning" && text.startsWith("SQLite is an experimental feature")) return;
    return Reflect.apply(emit, this, [warning, ...rest]);
  } as typeof process.emitWarning;
}
