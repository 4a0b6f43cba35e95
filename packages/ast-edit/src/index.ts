// Everything exported here is public API of @tooldock/ast-edit. Keep this list curated; never
// `export *`. The surface test (index.test.ts) fails when this list changes by accident.

export type { AstEditApplyDetails } from "./apply-plan.js";
export type { AstEditErrorCode } from "./ast-edit-error.js";
export { AstEditError } from "./ast-edit-error.js";
export type { AstEditDetails, AstEditToolOptions } from "./ast-edit-tool.js";
export { AST_EDIT_TOOL_NAME, createAstEditTool } from "./ast-edit-tool.js";
export type { AstEditFileSystem } from "./file-system.js";
export type { AstEditParameters } from "./parameters.js";
export { astEditParameters } from "./parameters.js";
