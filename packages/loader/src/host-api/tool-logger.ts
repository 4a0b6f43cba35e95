import type { Logger, ToolLogger } from "@tooldock/sdk";

/**
 * The `pi.logger` of a `ToolHost`: the host's logger, each message passed on as given, plus
 * `time` (pi's forks have it), which logs `"<label>: <n> ms"` at `debug`:
 * `time(label)` returns a function that logs and returns the milliseconds since;
 * `time(label, fn)` runs `fn` and logs when it returns, throws, or (for a promise) settles.
 */
export function createToolLogger(logger: Logger): ToolLogger {
  const log = (label: string, started: number): number => {
    const elapsed = Math.round((performance.now() - started) * 1000) / 1000;
    logger.debug(`${String(label)}: ${elapsed} ms`, { label: String(label), ms: elapsed });
    return elapsed;
  };
  function time(label: string): () => number;
  function time<T>(label: string, fn: () => T): T;
  function time<T>(label: string, fn?: () => T): T | (() => number) {
    const started = performance.now();
    const done = () => log(label, started);
    if (typeof fn !== "function") {
      let elapsed: number | undefined;
      return () => {
        elapsed ??= done();
        return elapsed;
      };
    }
    let result: T;
    try {
      result = fn();
    } catch (error) {
      done();
      throw error;
    }
    if (result instanceof Promise) result.then(done, done);
    else done();
    return result;
  }
  return Object.freeze({
    debug: (message: string, data?: unknown) => logger.debug(message, data),
    info: (message: string, data?: unknown) => logger.info(message, data),
    warn: (message: string, data?: unknown) => logger.warn(message, data),
    error: (message: string, data?: unknown) => logger.error(message, data),
    time,
  });
}
