import { dirname, resolve } from "node:path";
import type { DiagnosticLocation } from "@tooldock/sdk";
import { relativeSpecifiers } from "./host-packages/value-imports.js";
import { toolSources } from "./tool-sources.js";

/** A place in a source file, as a compile failure reports it. */
export interface SourcePlace {
  file: string;
  location: DiagnosticLocation;
}

/** The location of `offset` in `source`: 1-based line and column, and the line's text. */
export function locationAt(source: string, offset: number): DiagnosticLocation {
  const start = source.lastIndexOf("\n", offset - 1) + 1;
  const end = source.indexOf("\n", offset);
  const line = source.slice(0, start).split("\n").length;
  const lineText = source.slice(start, end === -1 ? undefined : end).replace(/\r$/, "");
  return { line, column: offset - start + 1, lineText };
}

/** Where a source names `specifier` as a string literal: its opening quote, as esbuild reports it. */
export function specifierOffset(source: string, specifier: string): number | undefined {
  const offsets = ['"', "'", "`"].map((quote) => source.indexOf(`${quote}${specifier}${quote}`));
  return offsets.find((offset) => offset !== -1);
}

const IMPORT_STATEMENT = /\b(import|export)\s+(?!type\s)([^;]*?)\s*\bfrom\s*(["'])([^"'\n]+)\3/g;

/**
 * Where a source imports `name` (`default`: the default binding) from `specifier` (or a test:
 * Node names an installed package by its `file:` URL), as esbuild reports a missing export,
 * and the specifier as written there.
 */
export function importedName(
  source: string,
  specifier: string | ((written: string) => boolean),
  name: string,
): { offset: number; specifier: string } | undefined {
  for (const match of source.matchAll(IMPORT_STATEMENT)) {
    const written = match[4] ?? "";
    if (typeof specifier === "string" ? written !== specifier : !specifier(written)) continue;
    const clause = match[2] ?? "";
    const clauseStart = (match.index ?? 0) + match[0].indexOf(clause, (match[1] ?? "").length);
    if (name === "default" && match[1] === "import") {
      const binding = /^\s*([A-Za-z_$][\w$]*)\s*(?:,|$)/.exec(clause);
      if (binding?.[1] !== undefined)
        return { offset: clauseStart + clause.indexOf(binding[1]), specifier: written };
      continue;
    }
    const braces = /\{([^}]*)\}/.exec(clause);
    if (braces === null) continue;
    const inside = new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`).exec(braces[1] ?? "");
    if (inside !== null) return { offset: clauseStart + braces.index + 1 + inside.index, specifier: written };
  }
  return undefined;
}

/** The first of the tool's own files whose `find` gives an offset, and where. */
export function findInToolSources(
  entry: string,
  find: (source: string) => number | undefined,
  first?: string,
): SourcePlace | undefined {
  const files = first === undefined ? toolSources(entry) : withFirst(first, toolSources(entry));
  for (const { file, source } of files) {
    const offset = find(source);
    if (offset !== undefined) return { file, location: locationAt(source, offset) };
  }
  return undefined;
}

function* withFirst(
  file: string,
  rest: Iterable<{ file: string; source: string }>,
): Generator<{ file: string; source: string }> {
  const [read] = toolSources(file); // that file alone, unless unreadable (a bundle that is gone)
  if (read !== undefined) yield read;
  for (const item of rest) if (item.file !== file) yield item;
}

/** The relative specifier (as written, and where) of a tool's file that points at the absolute `target`. */
export function findRelativeSpecifier(
  entry: string,
  target: string,
): (SourcePlace & { specifier: string }) | undefined {
  for (const { file, source } of toolSources(entry)) {
    for (const specifier of relativeSpecifiers(source)) {
      if (resolve(dirname(file), specifier) !== target) continue;
      const offset = specifierOffset(source, specifier);
      if (offset !== undefined) return { file, specifier, location: locationAt(source, offset) };
    }
  }
  return undefined;
}
