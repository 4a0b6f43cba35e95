// A private PostgreSQL server for the tests and benchmarks of durable pending actions: a new
// cluster in a temporary folder, reachable only through a Unix socket in a folder of its own
// (mode 0700: no other user of the machine can connect), stopped and removed at the end.
// Debian's `postgresql` package provides the binaries (`.ci/run` installs it when missing).
import { spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/**
 * The folder with PostgreSQL's server binaries (`initdb`, `postgres`), or why there is none.
 *
 * @returns {{ bin: string } | { missing: string }}
 */
export function findPostgres() {
  const candidates = (process.env.PATH ?? "").split(delimiter).filter((folder) => folder !== "");
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian))
    for (const version of readdirSync(debian).sort((a, b) => Number(b) - Number(a)))
      candidates.push(join(debian, version, "bin"));
  const bin = candidates.find(
    (folder) => existsSync(join(folder, "initdb")) && existsSync(join(folder, "postgres")),
  );
  if (bin !== undefined) return { bin };
  return {
    missing:
      "no PostgreSQL server binaries (initdb, postgres) on PATH or in /usr/lib/postgresql/*/bin: install Debian's postgresql package (.ci/run does)",
  };
}

/**
 * Whether tests that need PostgreSQL must run: always under `CI=true` or `CI=1` (a missing server is
 * then a failure), elsewhere only when the binaries are there (else skipped with the reason).
 *
 * @returns {{ run: true } | { run: false; reason: string }}
 */
export function postgresForTests() {
  const found = findPostgres();
  if ("bin" in found || process.env.CI === "true" || process.env.CI === "1") return { run: true };
  return { run: false, reason: found.missing };
}

/** The account the server runs as when this process is root (PostgreSQL refuses to run as root). */
function serverAccount() {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return undefined;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("postgres:"));
  if (line === undefined)
    throw new Error("Running as root, and there is no postgres user to run the test server as.");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Starts a new cluster, with the binaries `found` (default: {@link findPostgres}'s). Resolves once the server says it accepts connections (its own log
 * line, not a poll).
 *
 * @returns {Promise<{
 *   url: string;
 *   socketDir: string;
 *   start(): Promise<void>;
 *   stop(): Promise<void>;
 *   destroy(): Promise<void>;
 * }>}
 */
export async function startPostgresCluster(found = findPostgres()) {
  if (!("bin" in found)) throw new Error(found.missing);
  const { bin } = found;
  const account = serverAccount();
  const root = mkdtempSync(join(tmpdir(), "tooldock-pg-"));
  const data = join(root, "data");
  const socketDir = join(root, "socket");
  mkdirSync(socketDir, { mode: 0o700 });
  if (account !== undefined) {
    chownSync(root, account.uid, account.gid);
    chownSync(socketDir, account.uid, account.gid);
  }
  const asServer = account === undefined ? {} : { uid: account.uid, gid: account.gid };
  const init = spawnSync(
    join(bin, "initdb"),
    ["-D", data, "-U", "tooldock", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"],
    { ...asServer, encoding: "utf8", env: { ...process.env, LC_ALL: "C" } },
  );
  if (init.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status ?? init.signal}):\n${init.stderr}${init.stdout}`);
  }
  /** @type {import("node:child_process").ChildProcess | undefined} */
  let server;

  async function start() {
    if (server !== undefined) return;
    const child = spawn(
      join(bin, "postgres"),
      [
        "-D",
        data,
        "-k",
        socketDir,
        "-c",
        "listen_addresses=",
        "-c",
        "fsync=off",
        "-c",
        "full_page_writes=off",
        "-c",
        "max_connections=60",
      ],
      { ...asServer, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LC_ALL: "C" } },
    );
    server = child;
    let log = "";
    await new Promise((resolve, reject) => {
      child.stderr.setEncoding("utf8").on("data", (chunk) => {
        log += chunk;
        if (log.includes("database system is ready to accept connections")) resolve(undefined);
      });
      child.once("error", reject);
      child.once("exit", (code, signal) =>
        reject(new Error(`postgres exited (${code ?? signal}) before it was ready:\n${log}`)),
      );
    });
    child.stderr.resume();
  }

  async function stop() {
    const child = server;
    server = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGINT"); // fast shutdown: ends the sessions, checkpoints, exits
    await exited;
  }

  await start();
  return {
    url: `postgresql://tooldock@localhost/postgres?host=${encodeURIComponent(socketDir)}`,
    socketDir,
    start,
    stop,
    async destroy() {
      await stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
