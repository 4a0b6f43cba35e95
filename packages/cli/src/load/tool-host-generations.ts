import type { IsolatedToolHost, LoadCustomToolsResult } from "@tooldock/loader";

/**
 * The tool hosts of an isolated load and its reloads (`--isolate --watch`, `inspect`): each
 * load starts one. After a reload the previous ones are closed, unless `keep()` says an
 * action is pending (its `apply` runs in the tool host that staged it) or the reload had an
 * error (a module that failed to reload keeps its previous tools, which run in an earlier
 * tool host); those are closed at a later reload or by `close()`.
 */
export class ToolHostGenerations {
  #hosts: IsolatedToolHost[] = [];
  readonly #keep: () => boolean;

  constructor(keep: () => boolean = () => false) {
    this.#keep = keep;
  }

  /** Takes the tool host of a load or a reload (none for an in-process load). */
  add(result: Pick<LoadCustomToolsResult, "isolated" | "diagnostics">): void {
    if (result.isolated === undefined) return;
    const failed = result.diagnostics.some((diagnostic) => diagnostic.severity === "error");
    if (!failed && !this.#keep()) {
      for (const host of this.#hosts) void host.close();
      this.#hosts = [];
    }
    this.#hosts.push(result.isolated);
  }

  /** Stops every tool host; the pending actions they staged are lost. */
  async close(): Promise<void> {
    const hosts = this.#hosts;
    this.#hosts = [];
    await Promise.all(hosts.map((host) => host.close()));
  }
}
