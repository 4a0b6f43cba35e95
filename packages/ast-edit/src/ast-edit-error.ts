import { TooldockError } from "@tooldock/sdk";

/**
 * Codes of {@link AstEditError}:
 *
 * - `E_AST_EDIT_PATH`: `path` is outside `cwd`, missing, not a regular file or directory, or a
 *   file of an unsupported language; at apply, a target now resolves outside `cwd` or elsewhere
 *   than at the preview.
 * - `E_AST_EDIT_PATTERN`: ast-grep refused a pattern (empty, or more than one AST node).
 * - `E_AST_EDIT_LANGUAGE`: `lang` names a language ast_edit does not support.
 * - `E_AST_EDIT_STALE`: apply found a previewed file changed, replaced or removed since the preview.
 * - `E_AST_EDIT_WRITE`: apply could not write a file (files already written were restored).
 * - `E_AST_EDIT_LIMIT`: a rewritten file or the whole preview would be larger than its limit
 *   (`maxFileBytes`, `maxPreviewBytes`); nothing was staged.
 */
export type AstEditErrorCode =
  | "E_AST_EDIT_PATH"
  | "E_AST_EDIT_PATTERN"
  | "E_AST_EDIT_LANGUAGE"
  | "E_AST_EDIT_STALE"
  | "E_AST_EDIT_WRITE"
  | "E_AST_EDIT_LIMIT";

/** A fault of an `ast_edit` call or of applying its pending action. Messages end with what to do. */
export class AstEditError extends TooldockError {
  declare readonly code: AstEditErrorCode;

  constructor(code: AstEditErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
    this.name = "AstEditError";
  }
}
