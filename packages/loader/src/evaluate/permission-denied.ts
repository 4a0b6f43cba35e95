import { describeError } from "../diagnostics.js";

/** What each of Node's permission scopes refused, as a tool host's module meets it. */
const REFUSED: Record<string, [action: (resource: string) => string, grant: string]> = {
  FileSystemRead: [(resource) => `read ${resource}`, "Read"],
  FileSystemWrite: [(resource) => `write ${resource}`, "Write"],
  ChildProcess: [() => "start a process", "Exec"],
  WorkerThreads: [() => "start a worker thread", "Exec"],
  Net: [() => "open a network connection", "Net"],
};

/**
 * A module's error as its message says it, or, when Node's permission model refused it (in a
 * tool host), what and how to grant it (Node's advice names its own flags, not Tooldock's).
 */
export function thrownText(error: unknown): { text: string; hint?: string } {
  const denied = error as { code?: unknown; permission?: unknown; resource?: unknown } | null;
  if (typeof denied !== "object" || denied === null || denied.code !== "ERR_ACCESS_DENIED")
    return { text: describeError(error) };
  const permission = typeof denied.permission === "string" ? denied.permission : "";
  const resource = typeof denied.resource === "string" ? denied.resource : "";
  const [action, grant] = REFUSED[permission] ?? [];
  const what = action?.(resource) ?? `use ${permission || "what it asked for"}`;
  return {
    text: `its tool host may not ${what} (ERR_ACCESS_DENIED, Node's permission model)`,
    hint:
      `The module runs isolated: unless granted more, its tool host reads only the tool paths, the node_modules and package.json files above them and the working folder, ${writes()}, and starts no process. ` +
      `Keep what the module needs inside its folder, or grant it: ${grant === undefined ? "see the loader's isolation options" : `isolation.allow${grant} (the CLI's --allow-${grant.toLowerCase()})`}.`,
  };
}

/** What the tool host may write: the working folder (the library's default), or nothing (`validate`'s). */
function writes(): string {
  const permission = (process as { permission?: { has(scope: string, reference?: string): boolean } })
    .permission;
  return permission?.has("fs.write", process.cwd()) === false
    ? "writes nothing (not even the working folder)"
    : "writes only the working folder";
}
