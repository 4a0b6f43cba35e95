/** What a tool name must match (docs/contract.md §2): a letter or `_`, then up to 63 letters, digits, `_` or `-`. */
export const TOOL_NAME_PATTERN: RegExp = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
