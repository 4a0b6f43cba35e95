/**
 * The `process` methods that end (or kill) the process: each is replaced while a load runs,
 * so a tool module that calls one is reported as `E_PROCESS_EXIT` instead of ending the host.
 *
 * - `exit(code)`: the documented way.
 * - `reallyExit(code)`: what `process.exit` calls once the `exit` event is emitted; a module
 *   that calls it directly skips both `process.exit` and every `exit` listener.
 * - `abort()`: ends the process at once (`SIGABRT`, a core dump).
 * - `kill(pid, signal)` and the `_kill(pid, signal)` it calls: only when the signal would reach
 *   this process: `pid` is this process's id, `0` (its process group) or negative (a process
 *   group, `-1` is every process the user may signal), and the signal is not `0` (which only
 *   checks that the target exists). Signals to other processes go through unchanged.
 */
export const EXIT_METHODS = ["exit", "reallyExit", "abort", "kill", "_kill"] as const;

export type ExitMethod = (typeof EXIT_METHODS)[number];

/**
 * What a call of `method` with `args` does: `undefined` when it lets the process live (a
 * signal to another process, or signal `0`), else a description of the call for the
 * diagnostic, e.g. `process.kill(4242, "SIGKILL")`.
 */
export function describeExitCall(method: ExitMethod, args: readonly unknown[]): string | undefined {
  switch (method) {
    case "exit":
    case "reallyExit":
      return `process.${method}(${args[0] === undefined ? "" : describeArgument(args[0])})`;
    case "abort":
      return "process.abort()";
    default: {
      const [pid, signal] = args;
      const target = Number(pid);
      if (signal === 0 || (target !== process.pid && target > 0)) return undefined;
      return `process.${method}(${describeArgument(pid)}${signal === undefined ? "" : `, ${describeArgument(signal)}`})`;
    }
  }
}

/** A short, total description of an argument: never throws, whatever it is. */
function describeArgument(value: unknown): string {
  if (typeof value === "string") return `"${value}"`;
  if (value == null || ["number", "boolean", "bigint"].includes(typeof value)) return String(value);
  return typeof value === "symbol" ? "a symbol" : `a ${typeof value}`;
}
