import { NumberCtor, NumberIsInteger, StringCtor } from "./primordials.js";

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
 * diagnostic, e.g. `process.kill(4242, "SIGKILL")`. `args` are as the caller passed them;
 * `pid` is read once (see {@link killTarget}).
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
      if (signal === 0 || !reachesThisProcess(pid as number)) return undefined;
      return `process.${method}(${describeArgument(pid)}${signal === undefined ? "" : `, ${describeArgument(signal)}`})`;
    }
  }
}

/**
 * The `pid` argument of a `kill` as a number, read once: an object whose `valueOf` answers
 * differently each time cannot pass the check with one value and reach Node with another.
 * A value that is not an integer is passed on as `NaN`, which Node refuses.
 */
export function killTarget(pid: unknown): number {
  let value: number;
  try {
    value = NumberCtor(pid);
  } catch {
    return Number.NaN;
  }
  return NumberIsInteger(value) ? value : Number.NaN;
}

function reachesThisProcess(pid: number): boolean {
  return pid === process.pid || pid <= 0;
}

/** A short, total description of an argument: never throws, whatever it is. */
function describeArgument(value: unknown): string {
  if (typeof value === "string") return `"${value}"`;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return StringCtor(value);
  if (value === null || value === undefined) return StringCtor(value);
  return typeof value === "symbol" ? "a symbol" : `a ${typeof value}`;
}
