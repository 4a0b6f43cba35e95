import { syncBuiltinESMExports } from "node:module";
import os from "node:os";

/**
 * Closes what Node's permission model leaves open to a tool host that may not start
 * processes: signals and priorities of other processes. `process.kill` reaches any process
 * of the same user (the host too: `SIGUSR1` opens a Node host's debugger on loopback,
 * `SIGKILL` ends it), and `os.setPriority` changes any of them. Run before any module is
 * imported; the originals are kept only here, so a module cannot get them back (the
 * permission model refuses `process.binding`, the only other way to the same calls).
 *
 * After it, a signal may go only to the tool host itself or its own process group (pid
 * `0`, its own pid, or minus its pid: it leads its group); anything else throws an `EPERM`
 * error that names the gap. With `allowExec` this is not called: a module that may start
 * programs can signal through them anyway.
 */
export function confineSignals(): void {
  const own = process.pid;
  const allowed = (pid: number) => pid === 0 || pid === own || pid === -own;
  const refuse = (what: string, pid: unknown) =>
    Object.assign(
      new Error(
        `${what} ${String(pid)} is refused in a tool host: only its own process and group ` +
          "(the host allows other processes with isolation.allowExec).",
      ),
      { code: "EPERM", errno: -1, syscall: what },
    );
  const internal = process as unknown as { _kill?: (pid: number, signal: number) => number };
  const rawKill = internal._kill;
  if (typeof rawKill === "function") {
    // process.kill itself calls process._kill: confining this one confines both.
    internal._kill = (pid: number, signal: number) => {
      if (!allowed(Number(pid))) throw refuse("kill", pid);
      return rawKill.call(process, pid, signal);
    };
  }
  const kill = process.kill.bind(process);
  process.kill = ((pid: number, signal?: string | number) => {
    if (!allowed(Number(pid))) throw refuse("kill", pid);
    return kill(pid, signal);
  }) as typeof process.kill;
  const setPriority = os.setPriority;
  (os as { setPriority: typeof os.setPriority }).setPriority = ((
    pidOrPriority: number,
    priority?: number,
  ) => {
    if (priority !== undefined && !allowed(Number(pidOrPriority))) throw refuse("setPriority", pidOrPriority);
    return priority === undefined ? setPriority(pidOrPriority) : setPriority(pidOrPriority, priority);
  }) as typeof os.setPriority;
  // `import { setPriority } from "node:os"` reads the same, confined, function.
  syncBuiltinESMExports();
}
