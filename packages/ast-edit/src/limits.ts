import { count } from "@tooldock/runtime/internal";
import { AstEditError } from "./ast-edit-error.js";

/** Default of `maxFileBytes`: 8 MiB, far above any hand-written source file. */
export const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;

/** Default of `maxPreviewBytes`: 32 MiB of rewritten files and diffs in one preview. */
export const DEFAULT_MAX_PREVIEW_BYTES = 32 * 1024 * 1024;

/** The size bounds of one `ast_edit` preview and its apply. */
export interface RewriteLimits {
  /** Most bytes of one file, as read and as rewritten. */
  maxFileBytes: number;
  /** Most bytes of all rewritten files of a preview plus their diffs. */
  maxPreviewBytes: number;
}

const NARROW =
  "Nothing was changed or staged. Narrow the call: a path or glob that covers fewer files, a pattern that matches only what you mean, " +
  "an `out` that repeats its metavariables less, or `limit`; or split the rewrite into several calls.";

/** `E_AST_EDIT_LIMIT`: the rewrite of one file would be larger than `maxFileBytes`. */
export function fileTooLargeError(fileName: string | undefined, maxFileBytes: number): AstEditError {
  return new AstEditError(
    "E_AST_EDIT_LIMIT",
    `ast_edit stopped: the rewrite of ${fileName ?? "a file"} would be larger than ${maxFileBytes} bytes, ` +
      `the most one rewritten file may hold (maxFileBytes). ${NARROW}`,
  );
}

/** `E_AST_EDIT_LIMIT`: the preview would hold more than `maxPreviewBytes`. */
export function previewTooLargeError(
  fileName: string,
  fileCount: number,
  maxPreviewBytes: number,
): AstEditError {
  return new AstEditError(
    "E_AST_EDIT_LIMIT",
    `ast_edit stopped at ${fileName}: the rewritten files and their diffs would be larger than ${maxPreviewBytes} bytes ` +
      `after ${count(fileCount, "file")}, the most one preview may hold (maxPreviewBytes). ${NARROW}`,
  );
}
