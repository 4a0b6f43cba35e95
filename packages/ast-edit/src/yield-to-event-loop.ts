import { setImmediate } from "node:timers/promises";

/**
 * Lets the event loop run (timers, I/O, the session's deadline) before the next step of a
 * long rewrite, then throws the signal's reason if the call was stopped meanwhile.
 */
export async function yieldToEventLoop(signal?: AbortSignal): Promise<void> {
  await setImmediate();
  signal?.throwIfAborted();
}
