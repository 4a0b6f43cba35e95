import type { IsolatedToolHost, IsolatedToolHostEvent, LoadCustomToolsResult } from "@tooldock/loader";
import { count } from "@tooldock/runtime/internal";
import type { Diagnostic } from "@tooldock/sdk";
import { holdCacheWrite } from "./cache-writes.js";

/** A tool host that stopped on its own (not closed by the host), with what it took along. */
export type ToolHostStopped = Extract<IsolatedToolHostEvent, { type: "tool-host-stopped" }>;

/**
 * What a server says of its tool hosts: one that stopped on its own, or one started again
 * (by the next call) whose load of the modules reported errors; a line and its diagnostics.
 */
export interface ToolHostNews {
  text: string;
  diagnostics: Diagnostic[];
}

/**
 * The loads of a server (their cache writes are held, see `add`) and the tool hosts of an
 * isolated load and its reloads (`--isolate --watch`, `inspect`): each load starts one. A reload leaves the previous ones to the watch, which retires each once its
 * calls have answered and the actions it staged are resolved (or keeps it while a module that
 * failed to reload runs its previous tools there); `close()` stops those still running.
 * `onNews` hears of each tool host that stops on its own (a tool that exits, crashes, hangs
 * or runs out of memory): a server says so, with the pending actions that were lost; and of
 * one started again whose modules now fail to load (their tools are refused until fixed).
 */
export class ToolHostGenerations {
  #hosts: IsolatedToolHost[] = [];
  readonly #onNews: ((news: ToolHostNews) => void) | undefined;

  constructor(onNews?: (news: ToolHostNews) => void) {
    this.#onNews = onNews;
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
    const onNews = this.#onNews;
    // Subscribed once the load returned: every start heard here is a restart.
    if (onNews !== undefined)
      result.isolated.subscribe((event) => {
        if (event.type === "tool-host-stopped" && event.kind !== "closed")
          onNews({ text: describeToolHostStop(event), diagnostics: event.diagnostics });
        const errors =
          event.type === "tool-host-started"
            ? event.diagnostics.filter(({ severity }) => severity === "error")
            : [];
        if (errors.length > 0)
          onNews({
            text: `the tool host started again, and loading its modules reported ${count(errors.length, "error")}: the tools of a module that failed are refused until it is fixed and the tools are reloaded.`,
            diagnostics: errors,
          });
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
