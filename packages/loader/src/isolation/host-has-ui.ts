import { orElse } from "../discover/expand-path.js";
import type { ToolHost } from "../host-api/tool-host.js";

/**
 * Whether `host` has a user interface for a call of `sessionId` (`undefined`: outside any
 * call), as a tool host is told. A host's UI source that throws counts as none: its fault is
 * the host's, and in-process a tool that never uses the UI never notices it either.
 */
export function hostHasUI(host: ToolHost, sessionId: string | undefined): boolean {
  return orElse(() => host.uiFor(sessionId) !== undefined, false);
}
