/**
 * Names of the runtime's built-in tools the CLI registers (`call`, `demo`). Modules may not
 * claim them. `@tooldock/runtime` exports `createAstEditTool` but not its name constant, so
 * the name is spelled here (SPEC §4: `ast_edit`).
 */
export const AST_EDIT_TOOL_NAME = "ast_edit";

/** Every built-in the CLI registers; passed to the loader as reserved names. */
export const BUILT_IN_TOOL_NAMES: readonly string[] = [AST_EDIT_TOOL_NAME];
