/**
 * The applies running now in this process, by record id, and the store that runs each (also
 * past its deadline, until the apply itself settles). Every store of a process shares the
 * process's identity in the journal, which lets this process take its own `applying` record
 * again (a retry after a timeout); this tells one store's apply from another's, so that two
 * Session objects of one durable session never both run it, nor one discard what the other
 * applies.
 */
const running = new Map<string, object>();

/** Notes that `store` runs the apply of record `id` until `settled` settles. */
export function noteRunningApply(store: object, id: string, settled: Promise<unknown>): void {
  running.set(id, store);
  const done = () => {
    if (running.get(id) === store) running.delete(id);
  };
  settled.then(done, done);
}

/** Whether another store of this process runs the apply of record `id` now. */
export function appliedByAnotherStore(store: object, id: string): boolean {
  const runner = running.get(id);
  return runner !== undefined && runner !== store;
}
