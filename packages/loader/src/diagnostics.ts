import type {
  Diagnostic,
  DiagnosticErrorCode,
  DiagnosticLocation,
  DiagnosticWarningCode,
} from "@tooldock/sdk";

/** Fields of an error diagnostic besides its code and severity. */
export interface DiagnosticFields {
  message: string;
  path: string;
  resolvedPath?: string | undefined;
  toolName?: string | undefined;
  hint: string;
  location?: DiagnosticLocation | undefined;
}

/**
 * Builds an error diagnostic. Optional fields that are `undefined` are left out, so
 * diagnostics compare and serialise cleanly; `resolvedPath` is kept only when it differs from
 * `path`.
 */
export function createDiagnostic(code: DiagnosticErrorCode, fields: DiagnosticFields): Diagnostic {
  const diagnostic: Diagnostic = { code, severity: "error", message: fields.message, path: fields.path };
  if (fields.resolvedPath !== undefined && fields.resolvedPath !== fields.path) {
    diagnostic.resolvedPath = fields.resolvedPath;
  }
  if (fields.toolName !== undefined) diagnostic.toolName = fields.toolName;
  diagnostic.hint = fields.hint;
  if (fields.location !== undefined) diagnostic.location = fields.location;
  return diagnostic;
}

/**
 * The message of any thrown value, for diagnostics: the runtime's, so an `Error` of another
 * realm (a `vm` context, vitest's `vmThreads`) gives its message, not `{}`. Never throws.
 */
export { describeError } from "@tooldock/runtime/internal";

/** Builds a warning diagnostic (`W_…`), with the same field rules as {@link createDiagnostic}. */
export function createWarning(code: DiagnosticWarningCode, fields: DiagnosticFields): Diagnostic {
  return { ...createDiagnostic("E_IMPORT", fields), code, severity: "warning" };
}
