import type { Writable } from "node:stream";

/** The stream to write the protocol to, and the way to give stdout back. */
export interface ReservedStdout {
  protocol: Writable;
  release(): void;
}

/**
 * Keeps `stdout` for the protocol alone: until `release()`, anything else that writes to it
 * (a tool's `console.log`, a library's progress line) goes to `stderr`, and the returned
 * `protocol` stream is the only way to reach the real stdout.
 */
export function reserveStdout(stdout: Writable, stderr: Writable): ReservedStdout {
  const write = stdout.write;
  const protocolWrite = write.bind(stdout);
  const protocol = new Proxy(stdout, {
    get(target, key) {
      if (key === "write") return protocolWrite;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  stdout.write = ((...args: unknown[]) =>
    (stderr.write as (...args: unknown[]) => boolean).apply(stderr, args)) as typeof stdout.write;
  return {
    protocol,
    release() {
      stdout.write = write;
    },
  };
}
