// Test runners install their own `Error.prepareStackTrace` (vitest does, to map its own
// transformed files). V8 calls it instead of Node's, and it does not read the source maps the
// loader links from the compiled bundles, so a tool's stack would name bundle lines and
// `error.location` would be missing. While a harness call runs, Node's formatting is put back.

let callsRunning = 0;
let setAside: NonNullable<typeof Error.prepareStackTrace> | undefined;

/**
 * Runs `call` with `Error.prepareStackTrace` unset, so that stacks formatted meanwhile (the
 * tool's error, read by the session) are Node's, source-mapped. Concurrent calls share one
 * setting-aside; the runner's function is put back when the last one settles, unless someone
 * installed another one meanwhile.
 */
export async function withNodeStackTraces<T>(call: () => Promise<T>): Promise<T> {
  // Bun: no runner of its own sets one, and the loader's (which maps packs) must stay.
  if (process.versions.bun !== undefined) return call();
  if (callsRunning === 0) {
    setAside = Error.prepareStackTrace;
    if (setAside !== undefined) Reflect.deleteProperty(Error, "prepareStackTrace");
  }
  callsRunning += 1;
  try {
    return await call();
  } finally {
    callsRunning -= 1;
    if (callsRunning === 0 && setAside !== undefined && Error.prepareStackTrace === undefined)
      Error.prepareStackTrace = setAside;
    if (callsRunning === 0) setAside = undefined;
  }
}
