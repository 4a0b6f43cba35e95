import type { ToolCallError } from "@tooldock/runtime";
import { displayPath } from "../report/diagnostic-text.js";

/**
 * The line an MCP error result gets after the tool's own text when the tool threw and the
 * session found where (`tool-call-end`'s `error.location`): `The error was thrown at
 * tools/x.ts:12:7.`, the file relative to `cwd` when inside it. The message itself is already
 * in the result (`Tool "x" failed: <message>.`). `undefined` without a location.
 */
export function errorLocationNote(error: ToolCallError | undefined, cwd: string): string | undefined {
  const location = error?.location;
  if (location === undefined) return undefined;
  return `The error was thrown at ${displayPath(location.file, cwd)}:${location.line}:${location.column}.`;
}
