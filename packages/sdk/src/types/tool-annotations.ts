/**
 * Hints about what a tool does, for clients that show or gate tool calls (MCP's
 * `ToolAnnotations`, same names). Hints only: a client must not trust them from a server it
 * does not trust, and Tooldock enforces none of them.
 *
 * Left out, a hint takes a default: MCP's for most tools (not read-only, destructive, not
 * idempotent, open world), and for a `deferrable` tool `readOnlyHint: true`, since such a
 * tool only stages a preview and the change is made by `resolve` (docs/contract.md §7).
 */
export interface ToolAnnotations {
  /** A human title for the tool; default its `label`. */
  title?: string;
  /** True when the tool does not change its environment. */
  readOnlyHint?: boolean;
  /** When it changes things: true when it may destroy or overwrite (not just add). */
  destructiveHint?: boolean;
  /** When it changes things: true when calling it again with the same arguments changes nothing more. */
  idempotentHint?: boolean;
  /** True when it reaches an open world (the web, other people); false for a closed one (a local folder). */
  openWorldHint?: boolean;
}
