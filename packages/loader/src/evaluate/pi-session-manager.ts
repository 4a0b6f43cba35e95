import { dirname } from "node:path";
import type { ConversationEntry, ToolSessionManager } from "@tooldock/sdk";
import { remembered } from "../remembered.js";

/** A node of pi's `getTree()`: an entry, the entries after it, its label. */
interface TreeNode {
  entry: ConversationEntry;
  children: TreeNode[];
  label?: string;
}

/** One per session manager: `ctx.sessionManager` is the same object at every call of a session. */
const managers = new WeakMap<ToolSessionManager, ToolSessionManager>();

/**
 * `sessionManager` as pi's `ReadonlySessionManager`: Tooldock's reads, and pi's others read
 * from its entries. A Tooldock conversation is one line (its `getBranch()` is every entry),
 * so the leaf is the last entry and the tree one chain; labels and the session's name are
 * pi's `label` and `session_info` entries, as pi reads them, when the host passes pi's
 * entries; a Tooldock conversation has no header (`null`); the directory is the session
 * file's, else `""`.
 */
export function piSessionManager(sessionManager: ToolSessionManager): ToolSessionManager {
  return remembered(managers, sessionManager, () => {
    const entries = () => sessionManager.getEntries();
    const idOf = (entry: ConversationEntry | undefined) =>
      typeof entry?.id === "string" ? entry.id : undefined;
    // The last label entry for an entry wins; an empty one clears it, as in pi.
    const labels = () => {
      const byId = new Map<unknown, string>();
      for (const entry of entries()) {
        if (entry.type !== "label") continue;
        if (typeof entry.label === "string" && entry.label !== "") byId.set(entry.targetId, entry.label);
        else byId.delete(entry.targetId);
      }
      return byId;
    };
    const getLabel = (id: string) => labels().get(id);
    const getLeafEntry = () => entries().at(-1);
    const extended = Object.create(sessionManager) as Record<string, unknown>;
    Object.assign(extended, {
      getLeafEntry,
      getLeafId: () => idOf(getLeafEntry()) ?? null,
      getEntry: (id: string) => entries().find((entry) => idOf(entry) === id),
      getLabel,
      getSessionName: () => {
        const named = entries().findLast(
          (entry) => entry.type === "session_info" && typeof entry.name === "string" && entry.name !== "",
        );
        return named?.name as string | undefined;
      },
      getHeader: () => null,
      getSessionDir: () => {
        const file = sessionManager.getSessionFile();
        return file === undefined ? "" : dirname(file);
      },
      getTree: () => {
        const byId = labels();
        const nodes: TreeNode[] = entries().map((entry) => {
          const id = idOf(entry);
          const label = id === undefined ? undefined : byId.get(id);
          return label === undefined ? { entry, children: [] } : { entry, children: [], label };
        });
        for (let index = 1; index < nodes.length; index += 1)
          nodes[index - 1]?.children.push(nodes[index] as TreeNode);
        return nodes.slice(0, 1);
      },
    });
    return Object.freeze(extended) as unknown as ToolSessionManager;
  });
}
