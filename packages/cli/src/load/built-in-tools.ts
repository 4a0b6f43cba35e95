import { AST_EDIT_TOOL_NAME } from "@tooldock/ast-edit";

/** Every built-in the CLI registers (`call`, `demo`); passed to the loader as reserved names. */
export const BUILT_IN_TOOL_NAMES: readonly string[] = [AST_EDIT_TOOL_NAME];
