/**
 * Codes of load diagnostics (docs/contract.md §5). Each names one fault of a tool module:
 *
 * - `E_DISCOVERY`: a path could not be scanned (missing, unreadable, symlink loop).
 * - `E_NOT_EXECUTABLE`: a metadata file (`.md`, `.json`) was given as a tool module.
 * - `E_COMPILE`: the module does not compile; `location` points at the line.
 * - `E_IMPORT`: the compiled module threw while it was imported.
 * - `E_NO_FACTORY`: the module exports no factory function.
 * - `E_FACTORY_THROW`: the factory threw or rejected.
 * - `E_FACTORY_TIMEOUT`: the factory did not settle within `factoryTimeoutMs`.
 * - `E_PROCESS_EXIT`: the module called `process.exit` while importing or in its factory.
 * - `E_INVALID_TOOL`: an entry the factory returned is not a tool (missing fields).
 * - `E_INVALID_SCHEMA`: a tool's `parameters` is not a usable schema with an object top level.
 * - `E_NAME_INVALID`: a tool's name breaks `/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/` or is reserved.
 * - `E_NAME_CONFLICT`: another module (named in the message) already claimed the name.
 * - `E_TOOL_HOST`: with `isolation: "process"`, the tool host (the sandboxed child process
 *   that loads the modules) stopped before it reported its tools: it crashed, exited, ran out
 *   of memory, hung past `loadTimeoutMs`, broke the protocol or could not start; the message
 *   says which.
 * - `E_NOTHING_TO_VALIDATE`: `tooldock validate` (or `schema`) loaded no tool at all: no module at the paths
 *   it was given (a mistyped path, an emptied folder, a manifest that lists no tools), or
 *   modules that each gave no tool.
 */
export type DiagnosticErrorCode =
  | "E_DISCOVERY"
  | "E_NOT_EXECUTABLE"
  | "E_COMPILE"
  | "E_IMPORT"
  | "E_NO_FACTORY"
  | "E_FACTORY_THROW"
  | "E_FACTORY_TIMEOUT"
  | "E_PROCESS_EXIT"
  | "E_INVALID_TOOL"
  | "E_INVALID_SCHEMA"
  | "E_NAME_INVALID"
  | "E_NAME_CONFLICT"
  | "E_TOOL_HOST"
  | "E_NOTHING_TO_VALIDATE";

/** Every diagnostic error code, in the order of docs/contract.md §8. */
export const DIAGNOSTIC_ERROR_CODES: readonly DiagnosticErrorCode[] = [
  "E_DISCOVERY",
  "E_NOT_EXECUTABLE",
  "E_COMPILE",
  "E_IMPORT",
  "E_NO_FACTORY",
  "E_FACTORY_THROW",
  "E_FACTORY_TIMEOUT",
  "E_PROCESS_EXIT",
  "E_INVALID_TOOL",
  "E_INVALID_SCHEMA",
  "E_NAME_INVALID",
  "E_NAME_CONFLICT",
  "E_TOOL_HOST",
  "E_NOTHING_TO_VALIDATE",
];

/** Warning codes start with `W_`. */
export type DiagnosticWarningCode = `W_${string}`;

/** A diagnostic code: one of the error codes or a `W_` warning. */
export type DiagnosticCode = DiagnosticErrorCode | DiagnosticWarningCode;

/** Where in a source file a diagnostic points (1-based line and column). */
export interface DiagnosticLocation {
  line: number;
  column: number;
  lineText: string;
}

/** One finding about one tool module. Loading never throws; it reports these. */
export interface Diagnostic {
  code: DiagnosticCode;
  severity: "error" | "warning";
  /** What happened, in a sentence. */
  message: string;
  /** The path as the user gave or discovery found it. */
  path: string;
  /** The real path, when it differs or is known. */
  resolvedPath?: string;
  toolName?: string;
  /** What to do about it. */
  hint?: string;
  location?: DiagnosticLocation;
}
