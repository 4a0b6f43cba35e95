import type { LoadedCustomTool, ToolsReload } from "@tooldock/loader";
import type { Session } from "@tooldock/runtime";

/**
 * The loaded tools of an HTTP server: what each new session registers, kept up to date by
 * `--watch` reloads, which {@link ServedTools.sync} also carries into the open sessions. A
 * reload's `changes` come from the watcher's own session, so a module that failed to
 * reload is not among them and keeps its previous tools everywhere, as over stdio.
 */
export class ServedTools {
  readonly #byName = new Map<string, LoadedCustomTool>();

  constructor(tools: readonly LoadedCustomTool[]) {
    for (const loaded of tools) this.#byName.set(loaded.tool.name, loaded);
  }

  /** The tools a new session registers now, each with the module it came from. */
  list(): LoadedCustomTool[] {
    return [...this.#byName.values()];
  }

  /** Takes a reload's removed, replaced and added tools into {@link list}. */
  update(reload: ToolsReload): void {
    const { added, removed, replaced } = reload.changes;
    for (const name of removed) this.#byName.delete(name);
    for (const name of [...replaced, ...added]) {
      const loaded = reload.tools.find(({ tool }) => tool.name === name);
      if (loaded !== undefined) this.#byName.set(name, loaded);
    }
  }

  /**
   * Applies a reload to an open session: removed tools unregistered, replaced ones swapped
   * for the new version, added ones registered. Its pending actions stay (an action keeps
   * the code of the version that staged it). Call after {@link update}.
   */
  sync(session: Session, reload: ToolsReload): void {
    const { added, removed, replaced } = reload.changes;
    for (const name of [...removed, ...replaced]) session.unregister(name);
    for (const name of [...replaced, ...added]) {
      const loaded = this.#byName.get(name);
      if (loaded !== undefined) session.register(loaded.tool, loaded.path);
    }
  }
}
