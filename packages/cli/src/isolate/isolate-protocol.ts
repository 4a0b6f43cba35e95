// The report channel of `validate --isolate`: how one child process tells the parent what the
// loader found. The child runs untrusted code, so the parent trusts nothing it reads here
// until it has checked it: the size, the JSON, the schema, the run's nonce and the order.
import {
  DIAGNOSTIC_ERROR_CODES,
  type Diagnostic,
  type DiagnosticLocation,
  type ToolAnnotations,
} from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";

/** What the parent asks one child process to load (passed as its single argument, JSON). */
export interface IsolateRequest {
  /** The module, as the parent's discovery found it (absolute). */
  path: string;
  cwd: string;
  cacheDir: string | undefined;
  factoryTimeoutMs: number;
  builtInToolNames: string[];
  settleMs: number;
}

/**
 * File descriptor of the report channel in the child (a pipe the parent reads). The child's
 * stdin carries the run's nonce, one line, and is then closed.
 */
export const REPORT_FD = 3;

/** Most bytes a child may write on its report channel; past it, it is killed. */
export const MAX_REPORT_BYTES = 16 * 1024 * 1024;

/** Child → parent: the module loaded (or failed) and this is what the loader found. */
export interface IsolateResultMessage {
  type: "result";
  nonce: string;
  tools: ToolEntry[];
  diagnostics: Diagnostic[];
}

/**
 * Child → parent: the timers the module left have run (or `settleMs` passed); the child
 * exits next. `digest` is the SHA-256 (hex) of the result line it follows, as written.
 */
export interface IsolateSettledMessage {
  type: "settled";
  nonce: string;
  digest: string;
}

export type IsolateMessage = IsolateResultMessage | IsolateSettledMessage;

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const ERROR_CODES: ReadonlySet<string> = new Set(DIAGNOSTIC_ERROR_CODES);
const WARNING_CODE = /^W_[A-Z0-9_]{1,64}$/;

function optionalString(record: Record<string, unknown>, key: string): string | undefined | false {
  const value = record[key];
  if (value === undefined) return undefined;
  return typeof value === "string" ? value : false;
}

function parseLocation(value: unknown): DiagnosticLocation | undefined {
  if (!isRecord(value)) return undefined;
  const { line, column, lineText } = value;
  if (!Number.isSafeInteger(line) || !Number.isSafeInteger(column) || typeof lineText !== "string") {
    return undefined;
  }
  return { line: line as number, column: column as number, lineText };
}

/** A diagnostic rebuilt from its known fields only, or `undefined` when one is malformed. */
function parseDiagnostic(value: unknown): Diagnostic | undefined {
  if (!isRecord(value)) return undefined;
  const { code, severity, message, path } = value;
  if (typeof code !== "string" || typeof message !== "string" || typeof path !== "string") return undefined;
  const known = ERROR_CODES.has(code) ? "error" : WARNING_CODE.test(code) ? "warning" : undefined;
  if (known === undefined || severity !== known) return undefined;
  const diagnostic = { code, severity, message, path } as Diagnostic;
  for (const key of ["resolvedPath", "toolName", "hint"] as const) {
    const text = optionalString(value, key);
    if (text === false) return undefined;
    if (text !== undefined) diagnostic[key] = text;
  }
  if (value.location !== undefined) {
    const location = parseLocation(value.location);
    if (location === undefined) return undefined;
    diagnostic.location = location;
  }
  return diagnostic;
}

/** A tool entry rebuilt from its known fields only, or `undefined` when one is malformed. */
function parseToolEntry(value: unknown): ToolEntry | undefined {
  if (!isRecord(value)) return undefined;
  const { name, label, description, path, hidden, deferrable, parameters, outputSchema } = value;
  if (typeof name !== "string" || typeof label !== "string" || typeof description !== "string")
    return undefined;
  if (typeof path !== "string" || typeof hidden !== "boolean" || typeof deferrable !== "boolean")
    return undefined;
  const annotations = parseAnnotations(value.annotations);
  if (annotations === undefined || !isRecord(parameters)) return undefined;
  if (outputSchema !== undefined && !isRecord(outputSchema)) return undefined;
  const entry: ToolEntry = { name, label, description, path, hidden, deferrable, annotations, parameters };
  if (outputSchema !== undefined) entry.outputSchema = outputSchema;
  return entry;
}

/** The hints of MCP's `ToolAnnotations`; with `title`, the only keys an entry's annotations have. */
const ANNOTATION_HINTS: readonly string[] = [
  "readOnlyHint",
  "destructiveHint",
  "idempotentHint",
  "openWorldHint",
];

/** Annotations rebuilt from known keys of the right type, or `undefined` when one is not. */
function parseAnnotations(value: unknown): ToolAnnotations | undefined {
  if (!isRecord(value)) return undefined;
  const annotations: Record<string, string | boolean> = {};
  for (const [key, field] of Object.entries(value)) {
    const expected = key === "title" ? "string" : ANNOTATION_HINTS.includes(key) ? "boolean" : undefined;
    if (expected === undefined || typeof field !== expected) return undefined;
    annotations[key] = field as string | boolean;
  }
  return annotations as ToolAnnotations;
}

function parseList<T>(value: unknown, parse: (item: unknown) => T | undefined, what: string): Parsed<T[]> {
  if (!Array.isArray(value)) return { ok: false, reason: `"${what}" is not a list` };
  const items: T[] = [];
  for (const [index, item] of value.entries()) {
    const parsed = parse(item);
    if (parsed === undefined)
      return { ok: false, reason: `${what}[${index}] does not have the expected shape` };
    items.push(parsed);
  }
  return { ok: true, value: items };
}

/**
 * Checks one line read from a child's report channel against the protocol: JSON, an object
 * of a known `type` with every field of the right type (a fresh copy of the known fields is
 * returned, so nothing else the child put there travels on), and this run's `nonce`. Any
 * failure comes back as a reason, never as a throw.
 */
export function parseIsolateMessage(line: string, nonce: string): Parsed<IsolateMessage> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, reason: "a line that is not JSON" };
  }
  if (!isRecord(value)) return { ok: false, reason: "a message that is not an object" };
  if (value.nonce !== nonce) return { ok: false, reason: "a message without this run's nonce" };
  if (value.type === "settled") {
    if (typeof value.digest !== "string") return { ok: false, reason: "a settled message without a digest" };
    return { ok: true, value: { type: "settled", nonce, digest: value.digest } };
  }
  if (value.type !== "result") return { ok: false, reason: "a message of an unknown type" };
  const tools = parseList(value.tools, parseToolEntry, "tools");
  if (!tools.ok) return tools;
  const diagnostics = parseList(value.diagnostics, parseDiagnostic, "diagnostics");
  if (!diagnostics.ok) return diagnostics;
  return { ok: true, value: { type: "result", nonce, tools: tools.value, diagnostics: diagnostics.value } };
}
