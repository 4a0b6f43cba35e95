/**
 * The applies running now in this process, by record id, and the store that runs each (also
 * past its deadline, until the apply itself settles). Every store of a process shares the
 * process's identity in the journal, which lets this process take its own `applying` record
 * again (a retry after a timeout); this tells one store's apply from another's, so that two
 * Session objects of one durable session never both run it, nor one discard what the other
 * applies.
 */
const running = new Map<string, { store: object; count: number }>();

/** Notes that `store` runs an apply of record `id` until `settled` settles (a retry counts again). */
export function noteRunningApply(store: object, id: string, settled: Promise<unknown>): void {
  const entry = running.get(id);
  if (entry !== undefined && entry.store === store) entry.count += 1;
  else running.set(id, { store, count: 1 });
  const done = () => {
    const now = running.get(id);
    if (now === undefined || now.store !== store) return;
    now.count -= 1;
    if (now.count === 0) running.delete(id);
  };
  settled.then(done, done);
}

/** Whether another store of this process runs an apply of record `id` now. */
export function appliedByAnotherStore(store: object, id: string): boolean {
  const runner = running.get(id);
  return runner !== undefined && runner.store !== store;
}

/** Whether any store of this process runs an apply of record `id` now (also past its deadline). */
export function applyRunsHere(id: string): boolean {
  return running.has(id);
}
