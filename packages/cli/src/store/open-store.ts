import { dirname } from "node:path";
import {
  ensurePrivateFolder,
  openPostgresJournal,
  openSqliteJournal,
  type PendingActionJournal,
} from "@tooldock/runtime";
import type { StoreChoice } from "./store-option.js";

/**
 * The store opened, or why it could not be (`E_PENDING_STORE`: a shared folder, no SQLite
 * driver, a PostgreSQL server that cannot be reached, …).
 */
export async function openStoreJournal(
  store: StoreChoice,
): Promise<{ journal: PendingActionJournal } | { error: string }> {
  try {
    if (store.kind === "postgres") return { journal: await openPostgresJournal(store.url) };
    // A missing folder is made private (0700); one that exists is checked, never changed.
    const folder = dirname(store.path);
    const made = await ensurePrivateFolder(folder, folder);
    if (!made.ok) return { error: `E_PENDING_STORE: the store's folder ${made.folder} ${made.reason}.` };
    return { journal: openSqliteJournal(store.path) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    return { error: `${typeof code === "string" ? `${code}: ` : ""}${message}` };
  }
}
