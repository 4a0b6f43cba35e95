import type { IsolatedToolHost, IsolatedToolHostEvent, LoadCustomToolsResult } from "@tooldock/loader";
import { count } from "@tooldock/runtime/internal";
import { holdCacheWrite } from "./cache-writes.js";

/** A tool host that stopped on its own (not closed by the host), with what it took along. */
export type ToolHostStopped = Extract<IsolatedToolHostEvent, { type: "tool-host-stopped" }>;

/**
 * The loads of a server (their cache writes are held, see `add`) and the tool hosts of an
 * isolated load and its reloads (`--isolate --watch`, `inspect`): each load starts one. A reload leaves the previous ones to the watch, which retires each once its
 * calls have answered and the actions it staged are resolved (or keeps it while a module that
 * failed to reload runs its previous tools there); `close()` stops those still running.
 * `onStopped` hears of each tool host that stops on its own (a tool that exits, crashes, hangs
 * or runs out of memory): a server says so, with the pending actions that were lost.
 */
export class ToolHostGenerations {
  #hosts: IsolatedToolHost[] = [];
  readonly #onStopped: ((stopped: ToolHostStopped) => void) | undefined;

  constructor(onStopped?: (stopped: ToolHostStopped) => void) {
    this.#onStopped = onStopped;
  }

  /**
   * Takes a server's load or reload: its tool host (none for an in-process load), and its cache
   * writes, held until the process exits (`holdCacheWrite`: on Node 22.15+ a cold load's packs
   * come after it, and a client may end the server at once).
   */
  add(result: Pick<LoadCustomToolsResult, "isolated" | "cached">): void {
    holdCacheWrite(result.cached);
    if (result.isolated === undefined) return;
    // Closed ones are forgotten: a retired tool host starts no other.
    this.#hosts = this.#hosts.filter((host) => host.pid !== undefined);
    const onStopped = this.#onStopped;
    if (onStopped !== undefined)
      result.isolated.subscribe((event) => {
        if (event.type === "tool-host-stopped" && event.kind !== "closed") onStopped(event);
      });
    this.#hosts.push(result.isolated);
  }

  /** Stops every tool host; the pending actions they staged are lost. */
  async close(): Promise<void> {
    const hosts = this.#hosts;
    this.#hosts = [];
    await Promise.all(hosts.map((host) => host.close()));
  }
}

/** One line on a tool host that stopped: why, and how many staged actions went with it. */
export function describeToolHostStop(stopped: ToolHostStopped): string {
  const lost =
    stopped.lost.length === 0
      ? ""
      : ` ${count(stopped.lost.length, "pending action")} it had staged ${stopped.lost.length === 1 ? "was" : "were"} lost (W_ACTIONS_LOST).`;
  return `the tool host stopped: ${stopped.reason}${lost} The next call starts a new one.`;
}
