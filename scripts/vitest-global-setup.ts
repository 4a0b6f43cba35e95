import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runtimesCacheDir } from "./runtimes.mjs";

/** Set for the whole run: the folder every test's temporary files, caches and state go to. */
export const TEST_RUN_ENV = "TOOLDOCK_TEST_RUN_DIR";

/**
 * Set for the whole run: the user's own runtime cache (`scripts/runtimes.mjs`), where the runtime
 * matrix keeps Node 22, 24, 26 and Bun between runs instead of downloading ~150 MB each time.
 */
export const RUNTIMES_CACHE_ENV = "TOOLDOCK_TEST_RUNTIMES_CACHE";

/** The run set up in this process and how many projects' setups share it (see {@link setup}). */
const SETUP = Symbol.for("tooldock.test-run");

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** The variables this setup replaces, restored at teardown. */
const REPLACED = [
  "TMPDIR",
  "TMP",
  "TEMP",
  "XDG_CACHE_HOME",
  "XDG_STATE_HOME",
  "TOOLDOCK_CACHE_DIR",
  "TOOLDOCK_STATE_DIR",
  TEST_RUN_ENV,
  RUNTIMES_CACHE_ENV,
];

/**
 * vitest `globalSetup`: one folder per test run for everything tests write outside the
 * repository, removed when the run ends, so the suite leaves nothing in the system tmp and
 * never writes into the user's `~/.cache` or `~/.local/state`.
 *
 * - `TMPDIR` (and `TMP`, `TEMP`): `<system tmp>/tooldock-test-run-XXXXXX/tmp` (mode 1777,
 *   like the system tmp), so every `mkdtemp(tmpdir())` of a test, of a forked test worker and
 *   of a spawned CLI lands there.
 * - `XDG_CACHE_HOME`, `XDG_STATE_HOME`: `<repo>/node_modules/.cache/tooldock-test-run-XXXXXX/`
 *   (`cache`, `state`): the per-user compile cache and ast_edit's journals, outside the system
 *   tmp. Under `node_modules`, vitest imports cached bundles as they are.
 * - `TOOLDOCK_CACHE_DIR` and `TOOLDOCK_STATE_DIR` are unset, so a developer's own settings do
 *   not leak into the run; tests that need them set them.
 * - `TOOLDOCK_TEST_RUNTIMES_CACHE`: the user's runtime cache, read before `XDG_CACHE_HOME` is
 *   replaced: the one folder outside the run that the suite writes to (the runtime matrix
 *   installs the runtimes it tests there once, as `scripts/runtimes.mjs` does for a developer).
 *
 * Workers and child processes inherit these from this (the main) process.
 */
export default function setup(): () => void {
  // vitest runs the setup once per project (vitest.config.ts has two): the first call sets the
  // run up, the others share it, and whichever teardown comes last removes it.
  const shared = globalThis as { [SETUP]?: { count: number; teardown: () => void } };
  const active = shared[SETUP];
  if (active !== undefined) {
    active.count += 1;
    return release;
  }
  const saved = new Map(REPLACED.map((name) => [name, process.env[name]]));
  const runtimesCache = process.env[RUNTIMES_CACHE_ENV] ?? runtimesCacheDir();
  const run = mkdtempSync(join(tmpdir(), "tooldock-test-run-"));
  const userFolders = join(repoRoot, "node_modules", ".cache", basename(run));
  const tmp = join(run, "tmp");
  mkdirSync(tmp);
  // The same rights as the system tmp (sticky, everyone may create files), so tests that drop
  // to an unprivileged user (the corpus's unreadable cases) work as they do under /tmp.
  chmodSync(run, 0o755);
  chmodSync(tmp, 0o1777);
  mkdirSync(join(userFolders, "cache"), { recursive: true, mode: 0o700 });
  mkdirSync(join(userFolders, "state"), { recursive: true, mode: 0o700 });
  process.env.TMPDIR = tmp;
  process.env.TMP = tmp;
  process.env.TEMP = tmp;
  process.env.XDG_CACHE_HOME = join(userFolders, "cache");
  process.env.XDG_STATE_HOME = join(userFolders, "state");
  delete process.env.TOOLDOCK_CACHE_DIR;
  delete process.env.TOOLDOCK_STATE_DIR;
  process.env[TEST_RUN_ENV] = run;
  process.env[RUNTIMES_CACHE_ENV] = runtimesCache;
  shared[SETUP] = {
    count: 1,
    teardown() {
      removeAll(run);
      removeAll(userFolders);
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
  return release;
}

/** One project's teardown: the last one removes the run's folders and restores the environment. */
function release(): void {
  const shared = globalThis as { [SETUP]?: { count: number; teardown: () => void } };
  const active = shared[SETUP];
  if (active === undefined) return;
  active.count -= 1;
  if (active.count > 0) return;
  delete shared[SETUP];
  active.teardown();
}

/** `rm -rf`, also through folders a test left unreadable (mode 000). */
function removeAll(folder: string): void {
  try {
    rmSync(folder, { recursive: true, force: true });
    return;
  } catch {
    makeRemovable(folder);
  }
  rmSync(folder, { recursive: true, force: true });
}

function makeRemovable(folder: string): void {
  try {
    chmodSync(folder, 0o700);
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) makeRemovable(join(folder, entry.name));
    }
  } catch {
    // Gone meanwhile, or not ours: the second rmSync says so.
  }
}
