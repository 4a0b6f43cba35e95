import { describeError } from "../../util/describe-error.js";
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
  JournalTransition,
  PendingActionJournal,
  ProcessIdentity,
} from "./pending-journal.js";

/**
 * The part of a `pg` `Pool` (or `Client`) the journal uses: `query` with a query config
 * (`text` with `$1`-style `values`; `name` makes it a prepared statement, parsed and planned
 * once per connection). Any client with that method works (a pool is best: several resolves
 * at once).
 */
export interface PostgresQueryable {
  query(query: { text: string; values?: unknown[]; name?: string }): Promise<{ rows: unknown[] }>;
}

/** A connection of its own (`pg`'s `Client`), for the liveness lock. */
interface LivenessClient {
  query(query: { text: string; values?: unknown[] }): Promise<{ rows: unknown[] }>;
  on(event: "error" | "end", listener: (error?: Error) => void): unknown;
  end(): Promise<void>;
}

/** The first key of the advisory locks that say a process is alive (the second: its token's hash). */
export const LIVENESS_LOCK = 72381604;

/** Options of {@link openPostgresJournal}. */
export interface PostgresJournalOptions {
  /** Connections of the pool made from a connection string (a connection of its own holds the liveness lock). Default 4. */
  maxConnections?: number;
}

const OPEN_LIST = OPEN_STATES.map((state) => `'${state}'`).join(", ");

// One transaction, under an advisory lock: two processes creating the tables at once wait
// for each other (CREATE TABLE IF NOT EXISTS alone can fail on the catalog's unique index).
const SCHEMA = `
BEGIN;
SELECT pg_advisory_xact_lock(7238160421);
CREATE TABLE IF NOT EXISTS tooldock_pending_actions (
  seq BIGSERIAL PRIMARY KEY,
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
  isolated BOOLEAN,
  owner TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
-- A table made by a version without it: its records read back as staged in-process.
ALTER TABLE tooldock_pending_actions ADD COLUMN IF NOT EXISTS isolated BOOLEAN;
CREATE INDEX IF NOT EXISTS tooldock_pending_actions_open ON tooldock_pending_actions (session_id, state, seq);
CREATE TABLE IF NOT EXISTS tooldock_pending_transitions (
  seq BIGSERIAL PRIMARY KEY,
  action_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  at BIGINT NOT NULL,
  reason TEXT,
  error TEXT,
  process TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tooldock_pending_transitions_action ON tooldock_pending_transitions (action_id, seq);
CREATE INDEX IF NOT EXISTS tooldock_pending_transitions_session ON tooldock_pending_transitions (session_id, seq);
CREATE TABLE IF NOT EXISTS tooldock_pending_liveness (
  token TEXT PRIMARY KEY,
  at BIGINT NOT NULL
);
COMMIT;
`;

// The tokens of processes that hold a liveness lock while they run, written once the lock is
// held (before their first record): only for those does a missing lock mean an ended process.
// A process on a pool of its own takes none, and is never taken for ended.
const LIVE_TOKEN =
  "INSERT INTO tooldock_pending_liveness (token, at) VALUES ($1, $2) ON CONFLICT (token) DO NOTHING";
const ALIVE = `SELECT EXISTS (SELECT 1 FROM tooldock_pending_liveness WHERE token = $2) AS known,
  EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::int::oid AND objid = hashtext($2)::oid AND objsubid = 2 AND granted) AS alive`;

const OPEN = `SELECT id, session_id, state, form, label, source_tool, details, handler, payload, cwd, isolated, owner, created_at
FROM tooldock_pending_actions WHERE session_id = $1 AND state IN (${OPEN_LIST}) ORDER BY seq`;

const STAGE = `WITH added AS (
  INSERT INTO tooldock_pending_actions (id, session_id, state, form, label, source_tool, details, handler, payload, cwd, owner, created_at, updated_at, isolated)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $14)
  RETURNING id, session_id
)
INSERT INTO tooldock_pending_transitions (action_id, session_id, kind, at, process)
SELECT id, session_id, 'staged', $12, $13 FROM added`;

// One statement: the row is locked by the UPDATE, so of two processes moving the same record
// the second waits, finds it moved (PostgreSQL re-checks the condition on the new row) and
// moves nothing. `$7`: only while no newer record of the session is open (a resolve's claim).
// `$13`: the record takes the next number of the table's own sequence, past every record
// staged so far (a failed apply back on top).
const MOVE = `WITH moved AS (
  UPDATE tooldock_pending_actions a
  SET state = $2, owner = COALESCE($3, a.owner), updated_at = $4,
    seq = CASE WHEN $13::boolean THEN nextval(pg_get_serial_sequence('tooldock_pending_actions', 'seq')) ELSE a.seq END
  WHERE a.id = $1
    AND a.state = ANY($5::text[])
    AND (a.state <> 'applying' OR $6::text IS NULL OR (a.owner::jsonb ->> 'token') = $6)
    AND (NOT $7::boolean OR NOT EXISTS (
      SELECT 1 FROM tooldock_pending_actions n
      WHERE n.session_id = a.session_id AND n.seq > a.seq AND n.state IN (${OPEN_LIST})
    ))
  RETURNING a.session_id
), step AS (
  INSERT INTO tooldock_pending_transitions (action_id, session_id, kind, at, reason, error, process)
  SELECT $1, session_id, $8, $9, $10, $11, $12 FROM moved WHERE $8::text IS NOT NULL
)
SELECT count(*)::int AS moved FROM moved`;

/**
 * A {@link PendingActionJournal} in PostgreSQL, for several processes (a server behind a
 * load balancer): any of them opens a session and resolves its actions. Each transition is
 * one statement, one round trip: a record moves with a conditional `UPDATE` that locks its
 * row, so one action is applied at most once across every process; the stack's order is the
 * sequence the database assigns as records are added (and to a record a `restack` move puts
 * back on top). The tables
 * (`tooldock_pending_actions`, `tooldock_pending_transitions`) are created when missing.
 *
 * `connection` is a connection string (the `pg` package, installed beside
 * `@tooldock/runtime`, makes a pool that {@link PostgresJournal.close} ends) or a `pg`
 * `Pool` of your own (left open: give it an `error` listener, as `pg` asks). Rejects with
 * a `TooldockError` (`E_PENDING_STORE`) when `pg` is missing or the server cannot be
 * reached. Keep the password out of the string when other users can see your processes:
 * `pg` reads `PGPASSWORD` and `~/.pgpass`.
 *
 * @example
 * ```ts
 * const journal = await openPostgresJournal("postgresql://chat@db.internal/chat");
 * const session = await Session.open({ sessionId: "chat-42", journal });
 * ```
 */
export async function openPostgresJournal(
  connection: string | PostgresQueryable,
  options: PostgresJournalOptions = {},
): Promise<PostgresJournal> {
  if (typeof connection !== "string") return await created(connection);
  const pg = loadPg();
  const pool = makePool(pg, connection, options);
  try {
    return await created(pool, () => livenessClient(pg, connection));
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}

/**
 * The journal on `client` once its tables exist; `connect` (a pool made here) makes it own the
 * pool and tell liveness.
 */
async function created(
  client: PostgresQueryable,
  connect?: () => Promise<LivenessClient>,
): Promise<PostgresJournal> {
  try {
    await client.query({ text: SCHEMA });
  } catch (error) {
    throw storeError(
      `The pending-action database could not be opened: ${describeError(error)}.`,
      "Check the connection string (or PGHOST, PGUSER, PGDATABASE) and that the server accepts this user.",
    );
  }
  return new PostgresJournal(client, connect);
}

/** See {@link openPostgresJournal}. */
export class PostgresJournal implements PendingActionJournal {
  readonly #client: PostgresQueryable;
  #closed: Promise<void> | undefined;
  /**
   * Opens a connection for the liveness lock: given when the journal made its pool (from a
   * connection string), which it then also ends; `undefined`: a pool of the host's own, left
   * open, and liveness not told.
   */
  readonly #connect: (() => Promise<LivenessClient>) | undefined;
  /** The tokens whose liveness lock this journal holds (or takes), and on which connection. */
  readonly #held = new Map<string, Promise<LivenessClient>>();

  constructor(client: PostgresQueryable, connect?: () => Promise<LivenessClient>) {
    this.#client = client;
    this.#connect = connect;
  }

  async open(sessionId: string): Promise<JournalRecord[]> {
    const { rows } = await this.#query(OPEN, [sessionId], "tooldock_pending_open");
    return rows.map((row) => toRecord(row as RecordRow));
  }

  async stage(record: JournalRecord, process: ProcessIdentity): Promise<void> {
    // Alive before its first record is: another host never takes a record of it for a dead process's.
    await this.#hold(process.token);
    await this.#query(
      STAGE,
      [
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
        JSON.stringify(record.owner),
        record.createdAt,
        JSON.stringify(process),
        record.isolated === true ? true : null,
      ],
      "tooldock_pending_stage",
    );
  }

  async move(id: string, move: JournalMove): Promise<boolean> {
    if (move.owner !== undefined) await this.#hold(move.owner.token);
    const step = move.transition;
    const { rows } = await this.#query(
      MOVE,
      [
        id,
        move.to,
        move.owner === undefined ? null : JSON.stringify(move.owner),
        step?.at ?? Date.now(),
        move.from,
        move.applyingOwner?.token ?? null,
        move.top === true,
        step?.kind ?? null,
        step?.at ?? null,
        step?.reason ?? null,
        step?.error ?? null,
        step === undefined ? null : JSON.stringify(step.process),
        move.restack === true,
      ],
      // A new name for the new text: two copies of the runtime may share one pool (a
      // connection keeps each name's statement, and refuses the same name with other text).
      "tooldock_pending_move_v2",
    );
    return (rows[0] as { moved: number } | undefined)?.moved === 1;
  }

  async history(filter: { sessionId?: string; actionId?: string }): Promise<JournalTransition[]> {
    const { sql, values } = historySql(filter, (n) => `$${n}`);
    const { rows } = await this.#query(sql, values);
    return rows.map((row) => toTransition(row as TransitionRow));
  }

  /**
   * Whether the process `owner` still holds its liveness lock: its lock connection to the
   * server is open (a process that ends, however it ends, loses it; a host that vanishes loses
   * it when the server's TCP keepalive gives up). `undefined` when this journal cannot tell (a
   * pool of your own), and for a process that never took the lock (one on a pool of its own).
   */
  async processAlive(owner: ProcessIdentity): Promise<boolean | undefined> {
    if (this.#connect === undefined) return undefined;
    const { rows } = await this.#query(ALIVE, [LIVENESS_LOCK, owner.token], "tooldock_pending_alive_v2");
    const row = rows[0] as { known: boolean; alive: boolean } | undefined;
    return row?.known === true ? row.alive : undefined;
  }

  /**
   * Ends the liveness connections (their locks go), then the pool made from a connection
   * string; a pool of your own is left open.
   */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      const held = await Promise.allSettled(this.#held.values());
      this.#held.clear();
      for (const outcome of held)
        if (outcome.status === "fulfilled") await outcome.value.end().catch(() => {});
      if (this.#connect !== undefined) await (this.#client as unknown as { end(): Promise<void> }).end();
    })();
    return this.#closed;
  }

  /**
   * Takes `token`'s liveness lock, shared, on a connection of its own (one per journal), once;
   * when that connection fails (a server restart, an idle cut, a terminated backend), takes it
   * again at once, and every second until it holds or the journal closes. `undefined` when this
   * journal takes none (a pool of the host's own) or is closed.
   */
  #holding(token: string): Promise<LivenessClient> | undefined {
    const connect = this.#connect;
    if (connect === undefined || this.#closed !== undefined) return undefined;
    let holding = this.#held.get(token);
    if (holding === undefined) {
      const taking = this.#lock(connect, token);
      holding = taking;
      this.#held.set(token, taking);
      taking.catch(() => {
        if (this.#held.get(token) === taking) this.#held.delete(token);
      });
    }
    return holding;
  }

  /**
   * Holds `token`'s lock before a record names it. A call that joined an attempt already under
   * way makes one of its own when that one fails: the attempt may have begun while the server
   * was still starting after a restart, and the server may accept this one.
   */
  async #hold(token: string): Promise<void> {
    const joined = this.#held.has(token);
    try {
      await this.#holding(token);
    } catch (error) {
      if (!joined) throw error;
      await this.#holding(token);
    }
  }

  async #lock(connect: () => Promise<LivenessClient>, token: string): Promise<LivenessClient> {
    const client = await connect();
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      client.end().catch(() => {});
      if (this.#closed !== undefined) return;
      this.#held.delete(token);
      this.#takeAgain(token);
    };
    client.on("error", onLost);
    client.on("end", onLost);
    try {
      // Shared: two journals of one process (one token) both hold it, and neither waits.
      await client.query({
        text: "SELECT pg_advisory_lock_shared($1, hashtext($2))",
        values: [LIVENESS_LOCK, token],
      });
      await client.query({ text: LIVE_TOKEN, values: [token, Date.now()] });
    } catch (error) {
      lost = true;
      await client.end().catch(() => {});
      throw error;
    }
    return client;
  }

  /** Takes `token`'s lock again, every second while that fails (the timer keeps no process alive). */
  #takeAgain(token: string): void {
    this.#holding(token)?.catch(() => {
      if (this.#closed === undefined) setTimeout(() => this.#takeAgain(token), 1000).unref();
    });
  }

  /** One statement; `name` (the fixed ones) prepares it once per connection. */
  #query(text: string, values: unknown[], name?: string): Promise<{ rows: unknown[] }> {
    if (this.#closed !== undefined) return Promise.reject(new Error("the PostgreSQL journal is closed"));
    return this.#client.query(name === undefined ? { text, values } : { name, text, values });
  }
}

interface PgModule {
  Pool: new (config: {
    connectionString: string;
    max: number;
    keepAlive: boolean;
    connectionTimeoutMillis: number;
  }) => PostgresQueryable & {
    on(event: "error", listener: (error: Error) => void): unknown;
    end(): Promise<void>;
  };
  Client: new (config: {
    connectionString: string;
    keepAlive: boolean;
  }) => LivenessClient & {
    connect(): Promise<void>;
  };
}

/** The `pg` package, or `E_PENDING_STORE` saying to install it. */
function loadPg(): PgModule {
  const pg = optionalPackage<PgModule>("pg", "PostgreSQL pending-action store");
  if (pg !== undefined) return pg;
  throw storeError(
    "The PostgreSQL pending-action store needs the pg package, which is not installed.",
    "Install it beside @tooldock/runtime (npm install pg).",
  );
}

/** A `pg` pool whose idle connections may fail without ending the process. */
function makePool(
  pg: PgModule,
  connectionString: string,
  options: PostgresJournalOptions,
): PostgresQueryable & { end(): Promise<void> } {
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 4,
    // A server gone without a word (a partition) is noticed, not waited for for a quarter of an hour.
    keepAlive: true,
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection the server ends (a restart, a failover) is an `error` event; without a
  // listener it would end the host. The next query opens a new connection, or fails and says so.
  pool.on("error", () => {});
  return pool;
}

/** A connection of its own for the liveness lock (an `error` on it never ends the host). */
async function livenessClient(pg: PgModule, connectionString: string): Promise<LivenessClient> {
  const client = new pg.Client({ connectionString, keepAlive: true });
  client.on("error", () => {});
  await client.connect();
  return client;
}
