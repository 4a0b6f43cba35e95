import { ToolHostProcess, type ToolHostSpawn } from "./tool-host-process.js";

/** Most spares kept at once; a new one beyond it stops the oldest. */
const MAX_SPARES = 4;

/** Tool hosts started ahead of need, by everything that fixes a process when it is spawned. */
const spares = new Map<string, ToolHostProcess>();

/** Spares whose settings are still being worked out: a load waits for them before it takes one. */
const planning = new Set<Promise<unknown>>();

/** Tracks a spare being planned, so that every load asked for after it can take it. */
export function planningSpare<T>(plan: Promise<T>): Promise<T> {
  const tracked = plan.finally(() => planning.delete(tracked));
  planning.add(tracked);
  return tracked;
}

/** Resolves once every spare asked for so far is started (or failed to). */
export async function sparesPlanned(): Promise<void> {
  while (planning.size > 0) await Promise.allSettled([...planning]);
}

/** @internal The process ids of the spares kept now (for tests). */
export function sparePids(): number[] {
  return [...spares.values()].flatMap((spare) => (spare.pid === undefined ? [] : [spare.pid]));
}

/** What makes a spare fit a load: the same binary, working folder, environment and permissions. */
function spawnKey(spawn: ToolHostSpawn): string {
  const { execPath, nodeVersion, cwd, env, permissions, hangTimeoutMs } = spawn;
  return JSON.stringify([execPath, nodeVersion, cwd, env, permissions, hangTimeoutMs]);
}

/**
 * A process for `spawn`: the spare kept for it when one is running (its start already paid),
 * else a new one. Either way without its load: the caller gives it with `begin`.
 */
export function takeToolHost(spawn: ToolHostSpawn): ToolHostProcess {
  const key = spawnKey(spawn);
  const spare = spares.get(key);
  spares.delete(key);
  return spare !== undefined && !spare.stopped ? spare : new ToolHostProcess(spawn);
}

/** Starts a spare for `spawn` unless one runs; it waits, holding nothing of the host. */
export function keepSpare(spawn: ToolHostSpawn): ToolHostProcess {
  const key = spawnKey(spawn);
  const running = spares.get(key);
  if (running !== undefined && !running.stopped) return running;
  const spare = new ToolHostProcess(spawn);
  spares.set(key, spare);
  spare.onStop(() => {
    if (spares.get(key) === spare) spares.delete(key);
  });
  for (const [oldKey, old] of spares) {
    if (spares.size <= MAX_SPARES) break;
    spares.delete(oldKey);
    void old.kill({ kind: "closed", reason: "Too many spare tool hosts: the oldest was stopped." });
  }
  return spare;
}

/** Stops `spare` unless a load took it. */
export async function dropSpare(spare: ToolHostProcess): Promise<void> {
  for (const [key, kept] of spares) {
    if (kept !== spare) continue;
    spares.delete(key);
    await spare.kill({ kind: "closed", reason: "The spare was closed." });
  }
}
