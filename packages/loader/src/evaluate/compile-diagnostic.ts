import { closeSync, openSync, readSync } from "node:fs";
import type { Diagnostic, DiagnosticLocation } from "@tooldock/sdk";
import { CompileFailure } from "../compile/compile-failure.js";
import { createDiagnostic, describeError } from "../diagnostics.js";
import type { DiscoveredModule } from "../discover/types.js";

/** The compiler could not read the entry (permission denied): `E_DISCOVERY`, as an unreadable folder. */
export function unreadableDiagnostic(module: DiscoveredModule, error: unknown): Diagnostic | undefined {
  const text = describeErrorChain(error);
  if (!/\b(EACCES|EPERM)\b/.test(text)) return undefined;
  if (!text.includes(module.resolvedPath) && !text.includes(module.path)) return undefined;
  return createDiagnostic("E_DISCOVERY", {
    message: `Tool path ${module.path} cannot be read (permission denied).`,
    ...module,
    hint: "Check the file's permissions (the host must be able to read it), or remove it from the tool paths.",
  });
}

function describeErrorChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth += 1) {
    parts.push(describeError(current));
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join("\n");
}

/** True when the first bytes of a file hold a NUL byte: it is not source text. */
function isBinaryFile(path: string): boolean {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, "r");
    const head = Buffer.alloc(8192);
    const length = readSync(descriptor, head, 0, head.length, 0);
    return head.subarray(0, length).includes(0);
  } catch {
    return false;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

export function compileDiagnostic(module: DiscoveredModule, error: unknown): Diagnostic {
  const failure = error instanceof CompileFailure ? error : undefined;
  const file = failure?.file ?? module.resolvedPath;
  if (isBinaryFile(file)) {
    return createDiagnostic("E_COMPILE", {
      message: `${module.path} does not compile: ${file} is a binary file (it contains NUL bytes), not JavaScript or TypeScript source.`,
      ...module,
      hint: "Point Tooldock at the tool's source file, or remove the binary file from the tool paths.",
    });
  }
  const text = describeError(error);
  const location = shortenLocation(failure?.location);
  const where =
    location === undefined ? "" : ` (${failure?.file ?? module.path}:${location.line}:${location.column})`;
  return createDiagnostic("E_COMPILE", {
    message: `${module.path} does not compile: ${text}${where}.`,
    ...module,
    location,
    hint: compileHint(text),
  });
}

/** What to do about a compile failure, from its text (esbuild's wording, which the jiti path copies). */
function compileHint(text: string): string {
  const unresolved = /Could not resolve "([^"]+)"/.exec(text)?.[1];
  if (unresolved !== undefined) {
    if (/^node:/.test(unresolved))
      return `"${unresolved}" is not a built-in module of Node ${process.versions.node}: fix the import path (see the Node.js documentation for the modules it has).`;
    if (/^(?:\.{1,2}(?:\/|$)|\/|[A-Za-z]:[\\/]|file:)/.test(unresolved))
      return `No file "${unresolved}" exists where the import points: fix the import path (relative to the importing file), or create the file.`;
    return `Install "${unresolved}" next to the tool (run your package manager in the tool's folder) or fix the import path.`;
  }
  const missingExport = /No matching export in "[^"]*" for import "([^"]+)"/.exec(text)?.[1];
  if (missingExport !== undefined)
    return `The imported module does not export "${missingExport}": fix the name in the import, or export it from that module (it is recompiled on the next load).`;
  return "Fix the error at the location shown; the module is recompiled on the next load.";
}

/** Longest `lineText` kept in a diagnostic: a longer line (a 2 MB minified file) is cut around the column. */
const MAX_LINE_TEXT = 200;

function shortenLocation(location: DiagnosticLocation | undefined): DiagnosticLocation | undefined {
  if (location === undefined || location.lineText.length <= MAX_LINE_TEXT) return location;
  const half = MAX_LINE_TEXT / 2;
  const start = Math.max(0, Math.min(location.column - 1 - half, location.lineText.length - MAX_LINE_TEXT));
  const end = start + MAX_LINE_TEXT;
  const lineText = `${start > 0 ? "…" : ""}${location.lineText.slice(start, end)}${end < location.lineText.length ? "…" : ""}`;
  return { ...location, lineText };
}
