import { TooldockError } from "@tooldock/sdk";
import { describeError } from "../diagnostics.js";
import { expandPath } from "../discover/expand-path.js";
import { loadCustomTools, type PrestartedToolHost, prestartToolHost } from "../load/load-custom-tools.js";
import type { LoadChanges, LoadCustomToolsResult } from "../load/types.js";
import { type LoadCustomToolsOptions, normalizeLoadOptions } from "../options.js";
import { linkedLocations } from "./linked-locations.js";
import { type PathWatch, watchEntry, watchPaths } from "./watch-paths.js";

/** Default of `debounceMs`: editors write a file in several steps; one reload covers them. */
export const DEFAULT_WATCH_DEBOUNCE_MS = 100;

/** Default of `reloadLimit`: at most 10 reloads started by changes in any 10 s. */
export const DEFAULT_RELOAD_LIMIT = { reloads: 10, perMs: 10_000 } as const;

/** One reload of a {@link ToolWatcher}: the load's result and the files that started it. */
export interface ToolsReload extends LoadCustomToolsResult {
  /** The files whose change started this reload (absolute, first seen first). */
  changedPaths: string[];
}

/** Options of {@link watchCustomTools}: those of `loadCustomTools`, plus how to watch. */
export interface WatchCustomToolsOptions extends LoadCustomToolsOptions {
  /** Quiet time after the last change before a reload starts. Default: 100 ms. */
  debounceMs?: number;
  /**
   * At most `reloads` reloads started by changes in any `perMs`: a module that rewrites its
   * own files on every load would otherwise reload without end. Past it, the next reload
   * waits until the oldest of them leaves the window, and `onError` is told once
   * (`E_WATCH`). Explicit `reload()` calls are not counted. Default: 10 in 10 s.
   */
  reloadLimit?: { reloads: number; perMs: number };
  /**
   * Called after each reload (not after the first load), whether or not it changed a tool:
   * `changes` lists the names added, removed and replaced, `diagnostics` what went wrong. In a
   * reload the changes started, `replaced` holds the tools of the modules whose own file
   * changed (every tool reloaded when a changed file is not a module's entry: a helper); a
   * reload that `reload()` asked for too holds every tool it replaced.
   * A reload that finishes while `stop()` or `close()` waits for it is delivered too, before
   * they resolve (a server holds each reload's `cached` until it exits, so the next start is
   * warm); none comes after.
   */
  onReload?: (reload: ToolsReload) => void;
  /**
   * Called when a location cannot be watched (missing, unreadable), a watcher fails, or a
   * `onReload` listener throws. The watcher goes on. Default: ignore.
   */
  onError?: (error: TooldockError) => void;
}

/** A running watch; see {@link watchCustomTools}. */
export interface ToolWatcher {
  /** The first load's result. */
  readonly initial: LoadCustomToolsResult;
  /**
   * Reloads now (as a change would, without waiting for the debounce) and resolves with that
   * reload. A reload already running finishes first; after `close()` it rejects.
   */
  reload(): Promise<ToolsReload>;
  /**
   * Stops watching and reloading and waits for a reload in progress (given to `onReload` when it
   * ends, before `stop()` resolves); the tools loaded stay, and
   * with `isolation` their tool host runs on until `close()`. Call it first when the session is
   * disposed at shutdown: its pending actions are discarded through their `reject`, which runs in
   * that tool host (closing it first loses them). Idempotent.
   */
  stop(): Promise<void>;
  /**
   * Stops watching (see `stop()`), waits for a reload in progress, and with `isolation` ends the
   * tool hosts of its loads: actions staged there and still pending are lost (dispose the
   * session between `stop()` and `close()` to discard them). Idempotent; later changes are ignored.
   */
  close(): Promise<void>;
}

/**
 * Loads tools like `loadCustomTools`, then watches the given paths and loads again after
 * each change (debounced by `debounceMs`). Every reload uses the same host and session, so
 * the session keeps its conversation and pending actions: the edited modules' tools are
 * replaced, removed modules' tools unregistered, new ones added (see `loadCustomTools`). Only
 * what changed is rebuilt: unchanged modules come from the compile cache. A module that
 * fails in a reload (a syntax error) keeps its previous tools; the diagnostic is in that
 * reload's `diagnostics`. Without `session`, `changes` compares the tool names with the
 * previous load's. Never throws for a module's fault; a location that cannot be watched goes
 * to `onError`. With `isolation`, the tool host of the next reload is started after each
 * load (see `prestartToolHost`), so a reload does not wait for a process to start.
 *
 * @example
 * ```ts
 * const watcher = await watchCustomTools({
 *   paths: ["./tools"], host, session,
 *   onReload: ({ changes, diagnostics }) => console.error(changes, diagnostics),
 * });
 * // later
 * await watcher.close();
 * ```
 */
export async function watchCustomTools(options: WatchCustomToolsOptions): Promise<ToolWatcher> {
  const {
    debounceMs = DEFAULT_WATCH_DEBOUNCE_MS,
    reloadLimit = DEFAULT_RELOAD_LIMIT,
    onReload,
    onError,
    ...loadOptions
  } = options;
  if (
    !Number.isSafeInteger(reloadLimit.reloads) ||
    reloadLimit.reloads < 1 ||
    !Number.isFinite(reloadLimit.perMs) ||
    reloadLimit.perMs < 0
  ) {
    throw new TooldockError(
      "E_INVALID_OPTION",
      `watchCustomTools: reloadLimit must be { reloads: a whole number, 1 or more, perMs: milliseconds, 0 or more } (got ${JSON.stringify(reloadLimit)}). Pass e.g. { reloads: 10, perMs: 10000 }.`,
    );
  }
  if (!Number.isFinite(debounceMs) || debounceMs < 0) {
    throw new TooldockError(
      "E_INVALID_OPTION",
      `watchCustomTools: debounceMs must be a finite number of milliseconds, 0 or more (got ${String(debounceMs)}). Pass e.g. 100.`,
    );
  }
  // One host for every reload: the tools' `pi` stays the same object's.
  const { cwd, host, cacheDir } = normalizeLoadOptions(loadOptions);
  const load: LoadCustomToolsOptions = { ...loadOptions, cwd, host };
  const report = (error: unknown, what: string) => {
    if (onError === undefined) return;
    const wrapped = TooldockError.isInstance(error)
      ? error
      : new TooldockError("E_WATCH", `${what}: ${describeError(error)}`, { cause: error });
    try {
      onError(wrapped);
    } catch {
      // A host listener that throws must not stop the watch.
    }
  };

  let previous: LoadCustomToolsResult | undefined;
  /** Tool hosts of earlier loads that still run tools a failed reload kept (see `start`). */
  const kept: NonNullable<LoadCustomToolsResult["isolated"]>[] = [];
  /** Replaced tool hosts that may still run (a call answering, an action pending): `close()` ends them. */
  const retiring = new Set<NonNullable<LoadCustomToolsResult["isolated"]>>();
  const retire = (host: NonNullable<LoadCustomToolsResult["isolated"]>) => {
    host.retire();
    for (const earlier of retiring) if (earlier.pid === undefined) retiring.delete(earlier);
    retiring.add(host);
  };
  /** An isolated watch keeps the next reload's tool host started: a reload waits for no process start. */
  let spare: PrestartedToolHost | undefined;
  const prestartNext = () => {
    if ((load.isolation ?? "none") !== "none" && !closed) spare = prestartToolHost(load);
  };
  let changed: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  /** The load running now (the first one included); reloads never overlap. */
  let running: Promise<unknown> | undefined;
  /** The reload asked for while another ran; it starts when that one ends. */
  let queued: Promise<ToolsReload> | undefined;
  /** Whether only changes asked for the queued reload: a `reload()` that joins it wants every tool's. */
  let queuedForChanges = true;
  let closed = false;
  /**
   * The real folders (or files) of modules linked in from outside the paths, each watched on
   * its own while a load still finds a module through it.
   */
  const linked = new Map<string, PathWatch>();
  const watchLinked = (result: LoadCustomToolsResult) => {
    const { links, targets } = linkedLocations(result.modules, locations);
    const now = new Map<string, () => PathWatch>();
    for (const target of targets)
      now.set(target, () => watchPaths([target], changedAt, cannotWatch, [cacheDir]));
    for (const link of links) now.set(link, () => watchEntry(link, relinked, cannotWatch));
    for (const [location, watching] of linked) {
      if (now.has(location)) continue;
      watching.close();
      linked.delete(location);
    }
    for (const [location, start] of now) {
      if (linked.has(location) || closed) continue;
      linked.set(location, start());
    }
  };
  /**
   * A link on the way to a module was pointed elsewhere, removed or replaced: the folders are
   * watched anew (the recursive watch went on watching where the link led, and not a folder
   * made in its place), and the tools reloaded.
   */
  const relinked = (path: string) => {
    if (closed) return;
    watch.close();
    watch = watchPaths(locations, changedAt, cannotWatch, [cacheDir]);
    changedAt(path);
  };
  const closedError = () => new TooldockError("E_WATCH", "The tool watcher is closed; it reloads no more.");

  // Also after `stop()` began: a reload it waits for has registered its tools, and its host
  // holds its `cached` (see `onReload`). No reload starts once `closed` is set.
  const deliver = (result: ToolsReload) => {
    if (onReload === undefined) return;
    try {
      onReload(result);
    } catch (error) {
      report(error, "The onReload listener threw");
    }
  };
  /** `fromChanges`: started by the changes the watch saw (not by `reload()`). */
  const start = (fromChanges = false): Promise<ToolsReload> => {
    const changedPaths = changed;
    changed = [];
    const current = loadCustomTools(load).then((result): ToolsReload => {
      const all = load.session === undefined ? nameChanges(previous, result) : result.changes;
      const changes = fromChanges ? onlyWhatChanged(all, result, changedPaths) : all;
      // An isolated load runs in a new tool host: the previous one retires once its calls have
      // answered and the actions it staged are resolved (its tools were replaced; its actions
      // still apply). Not after a reload with an error: a module that failed keeps its previous
      // tools, which run there; it retires at the next reload without one.
      const before = previous?.isolated;
      if (before !== undefined && before !== result.isolated) {
        const failed = failedPaths(result);
        if (failed.size === 0) {
          for (const host of kept.splice(0)) retire(host);
          retire(before);
        } else if ([...failed].every((path) => failedPaths(previous as LoadCustomToolsResult).has(path))) {
          // What failed now failed there too: none of its tools run there (an editor's saves
          // of a broken module would otherwise keep one tool host each).
          retire(before);
        } else kept.push(before);
      }
      previous = result;
      watchLinked(result);
      prestartNext();
      return { ...result, changes, changedPaths };
    });
    running = current;
    const settle = () => {
      if (running === current) running = undefined;
    };
    current.then(
      (result) => {
        settle();
        deliver(result);
      },
      (error: unknown) => {
        settle();
        report(error, "Reloading the tools failed inside Tooldock");
      },
    );
    return current;
  };
  const reload = (fromChanges = false): Promise<ToolsReload> => {
    if (closed) return Promise.reject(closedError());
    if (running === undefined) return start(fromChanges);
    queuedForChanges = (queued === undefined || queuedForChanges) && fromChanges;
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = undefined;
        if (closed) throw closedError();
        return start(queuedForChanges);
      });
    return queued;
  };

  /** When the reloads that changes started in the last `perMs` began, oldest first. */
  const started: number[] = [];
  let limited = false;
  /** Starts the reload the changes asked for, unless the limit holds it back for a while. */
  const fire = () => {
    timer = undefined;
    if (closed) return;
    const now = Date.now();
    while (started.length > 0 && (started[0] as number) <= now - reloadLimit.perMs) started.shift();
    if (started.length >= reloadLimit.reloads) {
      if (!limited) {
        limited = true;
        report(
          new TooldockError(
            "E_WATCH",
            `The tools changed for ${reloadLimit.reloads} reloads within ${reloadLimit.perMs} ms (does a module write its own files when it loads?): further reloads wait, at most ${reloadLimit.reloads} per ${reloadLimit.perMs} ms.`,
          ),
          "",
        );
      }
      timer = setTimeout(fire, (started[0] as number) + reloadLimit.perMs - now);
      return;
    }
    if (started.length === 0) limited = false; // a quiet window: tell again next time
    started.push(now);
    reload(true).catch(() => {}); // reported through onError
  };

  // Watching starts before the first load, so a change made while it runs is not missed
  // (its reload waits for the first load to end).
  const locations = load.paths.map((path) => expandPath(path, cwd));
  const changedAt = (path: string) => {
    if (closed) return;
    if (!changed.includes(path)) changed.push(path);
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(fire, debounceMs);
  };
  const cannotWatch = (error: unknown, location: string) =>
    report(error, `Cannot watch ${location} for changes`);
  // Bundles written to a cache inside a watched folder must not start another reload.
  let watch = watchPaths(locations, changedAt, cannotWatch, [cacheDir]);
  let initial: LoadCustomToolsResult;
  try {
    const first = loadCustomTools(load);
    running = first;
    initial = await first;
  } catch (error) {
    watch.close();
    throw error;
  } finally {
    running = undefined;
  }
  previous ??= initial;
  watchLinked(initial);
  prestartNext();
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      watch.close();
      for (const watching of linked.values()) watching.close();
      linked.clear();
      await queued?.catch(() => {});
      await running?.catch(() => {});
      await spare?.close();
    })();
    return stopping;
  };
  let closing: Promise<void> | undefined;
  return {
    initial,
    reload: () => reload(),
    stop,
    close() {
      closing ??= (async () => {
        await stop();
        await previous?.isolated?.close();
        await Promise.all([...kept.splice(0), ...retiring].map((host) => host.close()));
        retiring.clear();
      })();
      return closing;
    },
  };
}

/** The paths a load's errors name: the modules (or the load's paths) that failed. */
function failedPaths(result: LoadCustomToolsResult): Set<string> {
  return new Set(result.diagnostics.flatMap(({ severity, path }) => (severity === "error" ? [path] : [])));
}

/** Changes by tool name, for a watch without a session. */
function nameChanges(previous: LoadCustomToolsResult | undefined, next: LoadCustomToolsResult): LoadChanges {
  const before = new Set(previous?.tools.map(({ tool }) => tool.name));
  const after = new Set(next.tools.map(({ tool }) => tool.name));
  return {
    added: [...after].filter((name) => !before.has(name)),
    removed: [...before].filter((name) => !after.has(name)),
    replaced: [...after].filter((name) => before.has(name)),
  };
}

/**
 * `changes` with `replaced` narrowed to the tools of the modules whose own file changed, when
 * every changed file is a module's entry: editing one tool file reports that file's tools, not
 * every tool reloaded with it. When a changed file is anything else (a helper, a manifest, a
 * file removed), any module may have changed with it: `changes` as they are.
 */
function onlyWhatChanged(
  changes: LoadChanges,
  result: LoadCustomToolsResult,
  changedPaths: string[],
): LoadChanges {
  const entries = new Map<string, string>();
  for (const { path, resolvedPath } of result.modules) {
    entries.set(path, resolvedPath);
    entries.set(resolvedPath, resolvedPath);
  }
  if (changedPaths.length === 0 || changedPaths.some((path) => !entries.has(path))) return changes;
  const edited = new Set(changedPaths.map((path) => entries.get(path)));
  const moduleOf = new Map(result.tools.map(({ tool, resolvedPath }) => [tool.name, resolvedPath]));
  return { ...changes, replaced: changes.replaced.filter((name) => edited.has(moduleOf.get(name))) };
}
