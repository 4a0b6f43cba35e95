import type { Readable, Writable } from "node:stream";

/** A promise that settles once the client is gone, and a way to stop listening. */
export interface ClientGone {
  promise: Promise<void>;
  dispose(): void;
}

/**
 * Settles when the client of a stdio server is gone: stdin ended or closed (the client exited
 * or closed its end), stdout failed (EPIPE: nobody reads any more), or `signal` aborted.
 */
export function whenClientGone(stdin: Readable, stdout: Writable, signal?: AbortSignal): ClientGone {
  let settle = () => {};
  const promise = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const gone = () => settle();
  stdin.once("end", gone);
  stdin.once("close", gone);
  // Stays attached after dispose: a write that fails later (EPIPE) must not crash the process.
  stdout.on("error", gone);
  signal?.addEventListener("abort", gone, { once: true });
  if (signal?.aborted) gone();
  return {
    promise,
    dispose() {
      stdin.off("end", gone);
      stdin.off("close", gone);
      signal?.removeEventListener("abort", gone);
    },
  };
}
