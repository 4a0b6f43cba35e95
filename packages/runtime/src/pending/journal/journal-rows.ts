import { createRequire } from "node:module";
import { TooldockError } from "@tooldock/sdk";
import type { JournalRecord, JournalState, JournalTransition, ProcessIdentity } from "./pending-journal.js";

// What the SQL journals (SQLite, PostgreSQL) share: their two tables' rows and how they read
// back, and the history query. Numbers come back as numbers, bigints or strings by driver.

/** States a record is still on (or taken from) its session's stack in. */
export const OPEN_STATES: readonly JournalState[] = ["pending", "applying", "interrupted"];

/** A row of `tooldock_pending_actions`, as `open` selects it. */
export interface RecordRow {
  id: string;
  session_id: string;
  state: JournalState;
  form: "data" | "closure";
  label: string;
  source_tool: string;
  details: string | null;
  handler: string | null;
  payload: string | null;
  cwd: string | null;
  /** 1 or `true` for a durable action staged in a tool host; null (or absent) otherwise. */
  isolated?: number | bigint | boolean | null;
  owner: string;
  created_at: number | bigint | string;
}

/** A row of `tooldock_pending_transitions` with its action's label, as {@link historySql} selects it. */
export interface TransitionRow {
  action_id: string;
  session_id: string;
  kind: JournalTransition["kind"];
  label: string | null;
  at: number | bigint | string;
  reason: string | null;
  error: string | null;
  process: string;
}

const STATES: readonly JournalState[] = [
  "pending",
  "applying",
  "interrupted",
  "applied",
  "discarded",
  "lost",
];

export function toRecord(row: RecordRow): JournalRecord {
  // A row this version cannot read as written (a newer version's form, a damaged column) is
  // left as it is and named, never taken for something else (a callback action: lost).
  if (row.form !== "data" && row.form !== "closure")
    throw unreadableRow(
      row.id,
      `its form ${JSON.stringify(row.form)} is not one this version of Tooldock knows`,
    );
  if (!STATES.includes(row.state))
    throw unreadableRow(
      row.id,
      `its state ${JSON.stringify(row.state)} is not one this version of Tooldock knows`,
    );
  const record: JournalRecord = {
    id: row.id,
    sessionId: row.session_id,
    state: row.state,
    form: row.form,
    label: row.label,
    sourceToolName: row.source_tool,
    details: fromJson(row.details, row.id, "details"),
    createdAt: Number(row.created_at),
    owner: processOf(row.owner, row.id, "owner"),
  };
  if (row.form === "data")
    return {
      ...record,
      handler: row.handler ?? "",
      payload: fromJson(row.payload, row.id, "payload"),
      ...(row.cwd === null ? {} : { cwd: row.cwd }),
      ...(row.isolated === true || Number(row.isolated ?? 0) === 1 ? { isolated: true } : {}),
    };
  return record;
}

export function toTransition(row: TransitionRow): JournalTransition {
  return {
    actionId: row.action_id,
    sessionId: row.session_id,
    kind: row.kind,
    ...(row.label === null ? {} : { label: row.label }),
    at: Number(row.at),
    ...(row.reason === null ? {} : { reason: row.reason }),
    ...(row.error === null ? {} : { error: row.error }),
    process: processOf(row.process, row.action_id, "process"),
  };
}

/** A process column: `{ host, pid, token }`, or an `E_PENDING_STORE` naming the row. */
function processOf(text: string, id: string, column: string): ProcessIdentity {
  const value = fromJson(text, id, column) as Partial<ProcessIdentity> | null | undefined;
  if (
    typeof value !== "object" ||
    value === null ||
    typeof value.host !== "string" ||
    typeof value.pid !== "number" ||
    typeof value.token !== "string"
  )
    throw unreadableRow(id, `its ${column} is not a process ({ host, pid, token })`);
  return value as ProcessIdentity;
}

function unreadableRow(id: string, problem: string): TooldockError {
  return storeError(
    `The durable store's record of pending action ${id} cannot be read: ${problem}.`,
    "It was written by a newer Tooldock or changed outside Tooldock; it is left as it is. Use the Tooldock that wrote it, restore the row from a backup, or delete that action's rows (tooldock_pending_actions and tooldock_pending_transitions) to drop it.",
  );
}

/** A JSON column's text; `null` for `undefined`. */
export function toJson(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/**
 * A JSON column of action `id`'s row; `undefined` for SQL `NULL`. A column that is not JSON
 * (a row edited or damaged outside Tooldock) is an `E_PENDING_STORE` naming the row, never a
 * bare `SyntaxError`.
 */
function fromJson(text: string | null, id: string, column: string): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw storeError(
      `The durable store's record of pending action ${id} cannot be read: its ${column} is not JSON (${(error as Error).message}).`,
      "The row was changed outside Tooldock; restore it from a backup, or delete that action's rows (tooldock_pending_actions and tooldock_pending_transitions) to drop it.",
    );
  }
}

/**
 * The history query of a session or an action, oldest first, each step with its action's
 * label; `placeholder(n)` writes the n-th parameter (`?` or `$n`).
 */
export function historySql(
  filter: { sessionId?: string; actionId?: string },
  placeholder: (n: number) => string,
): { sql: string; values: string[] } {
  const where: string[] = [];
  const values: string[] = [];
  for (const [column, value] of [
    ["t.session_id", filter.sessionId],
    ["t.action_id", filter.actionId],
  ] as const) {
    if (value === undefined) continue;
    values.push(value);
    where.push(`${column} = ${placeholder(values.length)}`);
  }
  const sql =
    "SELECT t.action_id, t.session_id, t.kind, a.label, t.at, t.reason, t.error, t.process " +
    "FROM tooldock_pending_transitions t LEFT JOIN tooldock_pending_actions a ON a.id = t.action_id" +
    `${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY t.seq`;
  return { sql, values };
}

/** A store fault, with what to do. */
export function storeError(message: string, hint: string): TooldockError {
  return new TooldockError("E_PENDING_STORE", `${message} ${hint}`);
}

/**
 * An optional package of a store (`pg`, `better-sqlite3`), resolved from the runtime's own
 * folder; `undefined` when it is not installed. One that is installed but does not load (a
 * native addon built for another Node, a broken install) is an `E_PENDING_STORE` that says so
 * and how to rebuild it: never mistaken for "not installed".
 */
export function optionalPackage<T>(name: string, store: string): T | undefined {
  try {
    return createRequire(import.meta.url)(name) as T;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    // Node's text without the "Require stack:" it appends, on one line.
    const text =
      String(message)
        .split("\nRequire stack:")[0]
        ?.replace(/\s*\n\s*/g, " ") ?? "";
    const notFound = code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND";
    // Not found, and the name in the message is the package's own, not one of its dependencies.
    if (notFound && text.includes(`'${name}'`)) return undefined;
    throw storeError(
      `The ${store} uses the ${name} package, which is installed but could not be loaded: ${text}`,
      `Rebuild it for this Node (${process.version}) with npm rebuild ${name}, or reinstall it.`,
    );
  }
}
