import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { RESOLVE_TOOL_NAME, type Session } from "@tooldock/runtime";
import type { CustomTool } from "@tooldock/sdk";
import { toMcpTool } from "./tool-definition.js";

/**
 * When `tools/list` includes `resolve`: `"always"` (the default) from the start, so clients
 * that read the tool list once and never call a tool they did not see listed can call it;
 * `"pending"` only while an action is pending, announced by `notifications/tools/list_changed`.
 */
export type ResolveListing = "always" | "pending";

/** What `resolve` says of itself when it is listed with nothing pending (`--resolve always`, the default). */
const ALWAYS_LISTED_NOTE =
  "It acts only on previews a tool has staged: with nothing pending it changes nothing and answers with an error, " +
  "so call it only after a tool said its change is pending.";

/**
 * The tools the server offers now: the session's active tools, plus `resolve` at all times
 * with `"always"`. The order is the session's registration order either way, so a listing
 * does not reshuffle when an action is staged.
 */
export function listedTools(session: Session, listing: ResolveListing): CustomTool[] {
  const active = new Set(session.activeTools().map((tool) => tool.name));
  return session
    .tools()
    .filter((tool) => active.has(tool.name) || (listing === "always" && tool.name === RESOLVE_TOOL_NAME));
}

/** `tools/list`'s answer: {@link listedTools} as MCP tool definitions. */
export function listedMcpTools(session: Session, listing: ResolveListing): Tool[] {
  return listedTools(session, listing).map((tool) => {
    const definition = toMcpTool(tool);
    if (listing !== "always" || tool.name !== RESOLVE_TOOL_NAME) return definition;
    return { ...definition, description: `${definition.description} ${ALWAYS_LISTED_NOTE}` };
  });
}
