import { RESOLVE_TOOL_NAME, TOOL_NAME_PATTERN } from "@tooldock/runtime";

/** Why a tool name cannot be used, or `undefined` when it can. */
export function checkToolName(name: string, reserved: ReadonlySet<string>): string | undefined {
  if (!TOOL_NAME_PATTERN.test(name)) {
    return `it must match ${TOOL_NAME_PATTERN} (a letter or "_", then up to 63 letters, digits, "_" or "-")`;
  }
  if (name === RESOLVE_TOOL_NAME)
    return `"${RESOLVE_TOOL_NAME}" is reserved for the built-in tool that applies or discards pending actions`;
  if (reserved.has(name)) return `"${name}" is reserved for a built-in tool of this host`;
  return undefined;
}
