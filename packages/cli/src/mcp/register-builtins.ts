import { createAstEditTool } from "@tooldock/ast-edit";
import type { Session } from "@tooldock/runtime";
import { count } from "@tooldock/runtime/internal";

/** The built-in tools `tooldock mcp --builtin` can serve. */
export type McpBuiltin = "ast_edit";

/**
 * Registers the built-in tools asked for into a served session (origin `built-in`), after
 * the loaded tools: `ast_edit` works in `cwd` and stages its rewrites as pending actions,
 * so its previews and `resolve` work over MCP as for any deferrable tool. Its apply journals
 * go to its usual per-user state folder (`TOOLDOCK_STATE_DIR`, else `$XDG_STATE_HOME/tooldock`).
 */
export function registerBuiltins(session: Session, names: readonly McpBuiltin[], cwd: string): void {
  for (const name of new Set(names)) {
    if (name === "ast_edit") session.register(createAstEditTool({ cwd }), "built-in");
  }
}

/** `3 tools from 2 modules` (`1 tool from 1 module`), plus `and ast_edit` when built-ins are served: the start line's count. */
export function describeServed(
  loaded: { tools: readonly unknown[]; modules: readonly unknown[] },
  builtins: readonly McpBuiltin[] = [],
): string {
  const served = `${count(loaded.tools.length, "tool")} from ${count(loaded.modules.length, "module")}`;
  return builtins.length === 0 ? served : `${served} and ${[...new Set(builtins)].join(", ")}`;
}
