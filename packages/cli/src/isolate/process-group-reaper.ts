const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Sends `signal` to a whole process group; a group that is already gone is fine. */
export function killProcessGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: every process of the group has exited.
  }
}

/**
 * Tracks the process groups of running children and kills them all (SIGKILL) if this process
 * exits or is interrupted first: they are detached, so a Ctrl-C would not reach them, and a
 * child stuck in a loop would otherwise spin on. A signal is re-raised after the cleanup, so
 * the CLI still ends the way the user asked.
 */
export class ProcessGroupReaper {
  readonly #groups = new Set<number>();
  readonly #onExit = () => this.killAll();
  readonly #onSignal = (signal: NodeJS.Signals) => {
    this.killAll();
    this.#detach();
    process.kill(process.pid, signal);
  };

  add(pid: number): void {
    if (this.#groups.size === 0) this.#attach();
    this.#groups.add(pid);
  }

  delete(pid: number): void {
    this.#groups.delete(pid);
    if (this.#groups.size === 0) this.#detach();
  }

  killAll(): void {
    for (const pid of this.#groups) killProcessGroup(pid, "SIGKILL");
  }

  #attach(): void {
    process.on("exit", this.#onExit);
    for (const signal of SIGNALS) process.on(signal, this.#onSignal);
  }

  #detach(): void {
    process.off("exit", this.#onExit);
    for (const signal of SIGNALS) process.off(signal, this.#onSignal);
  }
}
