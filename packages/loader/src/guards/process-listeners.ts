/**
 * The `process` events whose listeners decide how the host fails or ends: an `exit` listener
 * can change its exit code, an `uncaughtException` one keeps it running after a crash, a
 * `SIGINT` one keeps Ctrl-C from ending it.
 */
const WATCHED_EVENTS = ["uncaughtException", "unhandledRejection", "exit", "beforeExit", "SIGINT", "SIGTERM"];

/**
 * Counts the listeners of the {@link WATCHED_EVENTS}; the returned function lists the events
 * that gained a listener since the previous call (or since this one), so a load batch calls it
 * after each module to learn which listeners that module added.
 */
export function watchProcessListeners(): () => string[] {
  const count = () => WATCHED_EVENTS.map((event) => process.listenerCount(event));
  let before = count();
  return () => {
    const now = count();
    const added = WATCHED_EVENTS.filter((_event, index) => (now[index] ?? 0) > (before[index] ?? 0));
    before = now;
    return added;
  };
}
