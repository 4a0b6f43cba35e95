import { closeSync, existsSync, lstatSync, openSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, resolve } from "node:path";
import { TooldockError } from "@tooldock/sdk";
import { checkPrivateFolderSync } from "../../util/private-folder.js";
import {
  historySql,
  OPEN_STATES,
  optionalPackage,
  type RecordRow,
  storeError,
  type TransitionRow,
  toJson,
  toRecord,
  toTransition,
} from "./journal-rows.js";
import type {
  JournalMove,
  JournalRecord,
  JournalState,
  JournalTransition,
  PendingActionJournal,
  ProcessIdentity,
} from "./pending-journal.js";

/** The part of `node:sqlite`'s `DatabaseSync` and of `better-sqlite3`'s `Database` used here. */
export interface SqliteDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): SqliteStatement;
  close(): unknown;
}

interface SqliteStatement {
  run(...params: unknown[]): { changes: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** Options of {@link openSqliteJournal}. */
export interface SqliteJournalOptions {
  /**
   * An open database to use instead of opening `path` (a `node:sqlite` `DatabaseSync` or a
   * `better-sqlite3` `Database`); the journal still sets WAL mode and creates its tables.
   */
  database?: SqliteDatabase;
  /** How long a statement waits for another process's lock, in milliseconds. Default 5000. */
  busyTimeoutMs?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tooldock_pending_actions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL,
  state TEXT NOT NULL,
  form TEXT NOT NULL,
  label TEXT NOT NULL,
  source_tool TEXT NOT NULL,
  details TEXT,
  handler TEXT,
  payload TEXT,
  cwd TEXT,
  isolated INTEGER,
  owner TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tooldock_pending_actions_open ON tooldock_pending_actions (session_id, state, seq);
CREATE TABLE IF NOT EXISTS tooldock_pending_transitions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  action_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  at INTEGER NOT NULL,
  reason TEXT,
  error TEXT,
  process TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tooldock_pending_transitions_action ON tooldock_pending_transitions (action_id, seq);
CREATE INDEX IF NOT EXISTS tooldock_pending_transitions_session ON tooldock_pending_transitions (session_id, seq);
`;

/**
 * A {@link PendingActionJournal} in one SQLite file: `node:sqlite` where the Node version
 * has it (22.13+, 23.4+), else the `better-sqlite3` package when the host installed it. WAL
 * mode, full sync (a committed step survives a power cut), a busy timeout, so several
 * processes can share the file; a record moves with one conditional `UPDATE` in a
 * transaction, so one of them wins.
 *
 * The file holds the payloads of the actions, which the next resolve applies: its folder
 * must be private (yours, not writable by group or others), or another user could plant a
 * database, or its `-wal` file, and have their actions applied. A new file is created with
 * mode `0600`. Throws a `TooldockError` (`E_PENDING_STORE`) when the folder is shared, the
 * file is not a regular file of yours, or no SQLite driver is available.
 *
 * @example
 * ```ts
 * const journal = openSqliteJournal("/var/lib/chat/pending.db");
 * const session = await Session.open({ sessionId: "chat-42", journal });
 * ```
 */
export function openSqliteJournal(path: string, options: SqliteJournalOptions = {}): SqliteJournal {
  const file = resolve(path);
  let database = options.database;
  if (database === undefined) {
    checkDatabaseFile(file);
    const Driver = sqliteDriver(file); // before the file is made: none without a driver
    try {
      if (!existsSync(file)) closeSync(openSync(file, "a", 0o600));
      database = new Driver(file);
    } catch (error) {
      throw unopenable(file, error);
    }
  }
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  try {
    database.exec(
      // The busy timeout first: two processes creating the file at once wait for each other.
      `PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;`,
    );
    database.exec(SCHEMA);
    addIsolatedColumn(database);
    return new SqliteJournal(database);
  } catch (error) {
    throw unopenable(file, error);
  }
}

/**
 * Adds the `isolated` column to a database made by a version without it (its records read
 * back without the mark, as staged in-process). Two processes opening such a file at once:
 * one adds it, the other finds it there.
 */
function addIsolatedColumn(database: SqliteDatabase): void {
  const has = () =>
    database
      .prepare("PRAGMA table_info(tooldock_pending_actions)")
      .all()
      .some((column) => (column as { name?: unknown }).name === "isolated");
  if (has()) return;
  try {
    database.exec("ALTER TABLE tooldock_pending_actions ADD COLUMN isolated INTEGER");
  } catch (error) {
    if (!has()) throw error;
  }
}

/**
 * The driver's or the file system's fault opening `file` (not a database, damaged pages, a
 * read-only folder, no permission), as an `E_PENDING_STORE` that names the file.
 */
function unopenable(file: string, error: unknown): TooldockError {
  if (error instanceof TooldockError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return storeError(
    `The pending-action database ${file} cannot be opened: ${message}.`,
    "Check that the file is an SQLite database this user may read and write (in a folder it may write), or give another --store path.",
  );
}

/** See {@link openSqliteJournal}. */
export class SqliteJournal implements PendingActionJournal {
  readonly #db: SqliteDatabase;
  readonly #open: SqliteStatement;
  readonly #insert: SqliteStatement;
  readonly #transition: SqliteStatement;
  readonly #newer: SqliteStatement;
  readonly #select: SqliteStatement;
  readonly #update: SqliteStatement;
  readonly #restack: SqliteStatement;
  readonly #numbered: SqliteStatement;
  #closed = false;

  constructor(database: SqliteDatabase) {
    this.#db = database;
    this.#open = database.prepare(
      `SELECT * FROM tooldock_pending_actions WHERE session_id = ? AND state IN (${OPEN_STATES.map(() => "?").join(", ")}) ORDER BY seq`,
    );
    this.#insert = database.prepare(
      "INSERT INTO tooldock_pending_actions (id, session_id, state, form, label, source_tool, details, handler, payload, cwd, isolated, owner, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.#select = database.prepare(
      "SELECT seq, session_id, state, owner FROM tooldock_pending_actions WHERE id = ?",
    );
    this.#update = database.prepare(
      "UPDATE tooldock_pending_actions SET state = ?, owner = ?, updated_at = ? WHERE id = ?",
    );
    // A new number past every one given so far, as AUTOINCREMENT gives one to a new row; then
    // sqlite_sequence, which an UPDATE leaves alone, remembers it: a record staged later is
    // numbered after it, even once this row is deleted.
    this.#restack = database.prepare(
      `UPDATE tooldock_pending_actions SET seq = 1 + (SELECT max(seq) FROM (
        SELECT seq FROM sqlite_sequence WHERE name = 'tooldock_pending_actions'
        UNION ALL SELECT max(seq) FROM tooldock_pending_actions)) WHERE id = ?`,
    );
    this.#numbered = database.prepare(
      "UPDATE sqlite_sequence SET seq = (SELECT max(seq) FROM tooldock_pending_actions) WHERE name = 'tooldock_pending_actions'",
    );
    this.#newer = database.prepare(
      `SELECT 1 FROM tooldock_pending_actions WHERE session_id = ? AND seq > ? AND state IN (${OPEN_STATES.map(() => "?").join(", ")}) LIMIT 1`,
    );
    this.#transition = database.prepare(
      "INSERT INTO tooldock_pending_transitions (action_id, session_id, kind, at, reason, error, process) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
  }

  open(sessionId: string): JournalRecord[] {
    return this.#open.all(sessionId, ...OPEN_STATES).map((row) => toRecord(row as RecordRow));
  }

  stage(record: JournalRecord, process: ProcessIdentity): void {
    this.#transaction(() => {
      this.#insert.run(
        record.id,
        record.sessionId,
        record.state,
        record.form,
        record.label,
        record.sourceToolName,
        toJson(record.details),
        record.handler ?? null,
        toJson(record.payload),
        record.cwd ?? null,
        record.isolated === true ? 1 : null,
        JSON.stringify(record.owner),
        record.createdAt,
        record.createdAt,
      );
      this.#transition.run(
        record.id,
        record.sessionId,
        "staged",
        record.createdAt,
        null,
        null,
        JSON.stringify(process),
      );
    });
  }

  move(id: string, move: JournalMove): boolean {
    return this.#transaction(() => {
      const row = this.#select.get(id) as
        | { seq: number; session_id: string; state: JournalState; owner: string }
        | undefined;
      if (row === undefined || !move.from.includes(row.state)) return false;
      if (move.top === true && this.#newer.get(row.session_id, row.seq, ...OPEN_STATES) !== undefined)
        return false;
      if (
        row.state === "applying" &&
        move.applyingOwner !== undefined &&
        (JSON.parse(row.owner) as ProcessIdentity).token !== move.applyingOwner.token
      )
        return false;
      const at = move.transition?.at ?? Date.now();
      this.#update.run(move.to, move.owner === undefined ? row.owner : JSON.stringify(move.owner), at, id);
      if (move.restack === true) {
        this.#restack.run(id);
        this.#numbered.run();
      }
      const step = move.transition;
      if (step !== undefined)
        this.#transition.run(
          id,
          row.session_id,
          step.kind,
          step.at,
          step.reason ?? null,
          step.error ?? null,
          JSON.stringify(step.process),
        );
      return true;
    });
  }

  history(filter: { sessionId?: string; actionId?: string }): JournalTransition[] {
    const { sql, values } = historySql(filter, () => "?");
    return this.#db
      .prepare(sql)
      .all(...values)
      .map((row) => toTransition(row as TransitionRow));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  /** Runs `work` in one immediate transaction (the write lock taken first, so one process wins). */
  #transaction<T>(work: () => T): T {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      this.#db.exec("COMMIT");
      return result;
    } catch (error) {
      try {
        this.#db.exec("ROLLBACK");
      } catch {
        // SQLite rolled back already (a full disk, an I/O error): the first error says why.
      }
      throw error;
    }
  }
}

/**
 * Refuses a database another user could have written: its folder must be private, and the
 * file (and its `-wal` and `-shm`, when present) regular files of yours, not writable by
 * group or others. (A missing file is then created with mode `0600`; SQLite gives its `-wal`
 * and `-shm` the same mode.)
 */
function checkDatabaseFile(file: string): void {
  const folder = dirname(file);
  const check = checkPrivateFolderSync(folder, folder);
  if (!check.ok)
    throw storeError(
      `The pending-action database ${file} cannot be used: its folder ${check.folder} ${check.reason}.`,
      "Keep the database in a folder only you can write, e.g. ~/.local/state/tooldock (mode 0700).",
    );
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    let stats: ReturnType<typeof lstatSync> | undefined;
    try {
      stats = lstatSync(path);
    } catch {
      stats = undefined;
    }
    if (stats === undefined) continue;
    const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
    const problem = !stats.isFile()
      ? "is not a regular file"
      : uid !== undefined && stats.uid !== uid
        ? `is owned by user id ${stats.uid}, not by you`
        : (stats.mode & 0o022) !== 0
          ? "is writable by group or others"
          : undefined;
    if (problem !== undefined)
      throw storeError(
        `The pending-action database file ${basename(path)} in ${folder} ${problem}.`,
        "Remove it if it is not yours, and keep the database in a folder only you can write.",
      );
  }
}

/** The SQLite driver of this runtime: `node:sqlite`, else `better-sqlite3`. */
function sqliteDriver(file: string): new (path: string) => SqliteDatabase {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  const sqlite = getBuiltin?.call(process, "node:sqlite") as
    | { DatabaseSync: new (path: string) => SqliteDatabase }
    | undefined;
  if (sqlite?.DatabaseSync !== undefined) return sqlite.DatabaseSync;
  checkBetterSqliteNode(file);
  const betterSqlite = optionalPackage<new (path: string) => SqliteDatabase>(
    "better-sqlite3",
    `SQLite pending-action database ${file}`,
  );
  if (betterSqlite !== undefined) return betterSqlite;
  throw storeError(
    `No SQLite driver for the pending-action database ${file}: this Node (${process.version}) has no node:sqlite, and better-sqlite3 is not installed.`,
    "Run Node 22.13 or later, or install better-sqlite3 beside @tooldock/runtime (npm install better-sqlite3).",
  );
}

/**
 * Refuses a better-sqlite3 whose `engines` asks for a newer Node than this one, before it is
 * loaded: 13 and later hold a Node-API 10 addon, which kills Node 20 with a segmentation
 * fault when it opens a database, with no error to catch. Only the `>=` form is read (13's);
 * 12 lists the Node versions it was built for, and one built for another Node fails to load
 * with an error, which `optionalPackage` reports.
 */
function checkBetterSqliteNode(file: string): void {
  let manifest: { version?: unknown; engines?: { node?: unknown } };
  try {
    manifest = createRequire(import.meta.url)("better-sqlite3/package.json");
  } catch {
    return; // not installed, or its manifest unreadable: optionalPackage says which
  }
  const wanted = manifest.engines?.node;
  const minimum =
    typeof wanted === "string" ? /^\s*>=\s*v?(\d+(?:\.\d+){0,2})\s*$/.exec(wanted)?.[1] : undefined;
  if (minimum === undefined || !olderThan(process.versions.node, minimum)) return;
  throw storeError(
    `The SQLite pending-action database ${file} would use better-sqlite3 ${String(manifest.version)}, which needs Node ${wanted} (its addon crashes an older Node); this is Node ${process.version}.`,
    "Install better-sqlite3 12 beside @tooldock/runtime (npm install better-sqlite3@12), or run Node 22.13 or later, which has node:sqlite.",
  );
}

/** Whether the version `a` (e.g. `20.20.2`) comes before `b` (e.g. `22`, `22.5`). */
function olderThan(a: string, b: string): boolean {
  const left = a.split(".").map(Number);
  const right = b.split(".").map(Number);
  for (let index = 0; index < right.length; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference < 0;
  }
  return false;
}
