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

  /**
   * Takes a reload into {@link list}: its removed tools go, and every tool it loaded whose
   * object is new comes in (the replaced and added ones, and, under isolation, every tool of
   * the new tool host: `changes` lists only the edited modules' tools, but the others' proxies
   * now run there too, and the previous tool host retires). Returns the names taken in, for
   * {@link sync}.
   */
  update(reload: ToolsReload): Set<string> {
    for (const name of reload.changes.removed) this.#byName.delete(name);
    const swapped = new Set<string>();
    for (const loaded of reload.tools) {
      if (this.#byName.get(loaded.tool.name)?.tool === loaded.tool) continue;
      this.#byName.set(loaded.tool.name, loaded);
      swapped.add(loaded.tool.name);
    }
    return swapped;
  }

  /**
   * Applies a reload to an open session: removed tools unregistered, the tools {@link update}
   * took in swapped or registered. Its pending actions stay (an action keeps the code of the
   * version that staged it).
   */
  sync(session: Session, reload: ToolsReload, swapped: ReadonlySet<string>): void {
    for (const name of [...reload.changes.removed, ...swapped]) session.unregister(name);
    for (const name of swapped) {
      const loaded = this.#byName.get(name);
      if (loaded !== undefined) session.register(loaded.tool, loaded.path);
    }
  }
}
