import type { IsolatedToolHost, IsolatedToolHostEvent, LoadCustomToolsResult } from "@tooldock/loader";
import { count } from "@tooldock/runtime/internal";

/** A tool host that stopped on its own (not closed by the host), with what it took along. */
export type ToolHostStopped = Extract<IsolatedToolHostEvent, { type: "tool-host-stopped" }>;

/**
 * The tool hosts of an isolated load and its reloads (`--isolate --watch`, `inspect`): each
 * load starts one. After a reload the previous ones are closed, unless `keep()` says an
 * action is pending (its `apply` runs in the tool host that staged it) or the reload had an
 * error (a module that failed to reload keeps its previous tools, which run in an earlier
 * tool host); those are closed at a later reload or by `close()`. `onStopped` hears of each
 * tool host that stops on its own (a tool that exits, crashes, hangs or runs out of memory):
 * a server says so, with the pending actions that were lost.
 */
export class ToolHostGenerations {
  #hosts: IsolatedToolHost[] = [];
  readonly #keep: () => boolean;
  readonly #onStopped: ((stopped: ToolHostStopped) => void) | undefined;

  constructor(keep: () => boolean = () => false, onStopped?: (stopped: ToolHostStopped) => void) {
    this.#keep = keep;
    this.#onStopped = onStopped;
  }

  /** Takes the tool host of a load or a reload (none for an in-process load). */
  add(result: Pick<LoadCustomToolsResult, "isolated" | "diagnostics">): void {
    if (result.isolated === undefined) return;
    const failed = result.diagnostics.some((diagnostic) => diagnostic.severity === "error");
    if (!failed && !this.#keep()) {
      for (const host of this.#hosts) void host.close();
      this.#hosts = [];
    }
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
