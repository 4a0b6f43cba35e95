/** The folder with PostgreSQL's server binaries (`initdb`, `postgres`), or why there is none. */
export function findPostgres(): { bin: string } | { missing: string };
/** Whether tests that need PostgreSQL run: always under `CI=true`, elsewhere when installed. */
export function postgresForTests(): { run: true } | { run: false; reason: string };
/** A private server: a new cluster in a temporary folder, reached through its Unix socket only. */
export interface PostgresCluster {
  /** A connection string for the cluster's `postgres` database, user `tooldock`. */
  url: string;
  socketDir: string;
  /** Starts the server again after `stop()`. */
  start(): Promise<void>;
  /** Stops the server (a fast shutdown: sessions are ended); the data stays. */
  stop(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}
export function startPostgresCluster(found?: { bin: string } | { missing: string }): Promise<PostgresCluster>;
