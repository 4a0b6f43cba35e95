import { Console } from "node:console";
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
  // Node's `console` writes through `process.stdout.write`, replaced above; Bun's writes to
  // file descriptor 1 itself. Only there is it pointed elsewhere (on Node it keeps its group
  // indentation, timers and counters, shared with warn and error).
  const onBun = (process.versions as { bun?: string }).bun !== undefined;
  const restoreConsole = onBun && stdout === process.stdout ? consoleTo(stderr) : () => {};
  return {
    protocol,
    release() {
      stdout.write = write;
      restoreConsole();
    },
  };
}

/** The methods of `console` that print to stdout. */
const STDOUT_METHODS = [
  "log",
  "info",
  "debug",
  "dir",
  "dirxml",
  "table",
  "group",
  "groupCollapsed",
  "groupEnd",
  "count",
  "countReset",
  "time",
  "timeLog",
  "timeEnd",
] as const;

/**
 * Points the global `console`'s stdout methods at `stream` and returns how to undo it: on Bun,
 * whose `console.log` writes to file descriptor 1 itself, a module's output reached stdout.
 */
function consoleTo(stream: Writable): () => void {
  const target = new Console({ stdout: stream, stderr: stream });
  const global = console as unknown as Record<string, unknown>;
  const saved = STDOUT_METHODS.map((name) => [name, global[name]] as const);
  for (const name of STDOUT_METHODS) {
    const method = (target as unknown as Record<string, (...args: unknown[]) => void>)[name];
    if (typeof method === "function") global[name] = method.bind(target);
  }
  return () => {
    for (const [name, method] of saved) global[name] = method;
  };
}
