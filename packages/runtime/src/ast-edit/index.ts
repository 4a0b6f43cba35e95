// The public surface of the built-in ast_edit tool; packages/runtime/src/index.ts re-exports it.

export type { AstEditApplyDetails } from "./apply-plan.js";
export type { AstEditErrorCode } from "./ast-edit-error.js";
export { AstEditError } from "./ast-edit-error.js";
export type { AstEditDetails, AstEditToolOptions } from "./ast-edit-tool.js";
export { AST_EDIT_TOOL_NAME, createAstEditTool } from "./ast-edit-tool.js";
export type { AstEditFileSystem } from "./file-system.js";
export type { AstEditParameters } from "./parameters.js";
export { astEditParameters } from "./parameters.js";
