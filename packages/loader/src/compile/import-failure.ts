import { readFileSync } from "node:fs";
import { isAbsolute } from "node:path";
import { type ParseError, parse } from "jsonc-parser";
import { orElse } from "../discover/expand-path.js";
import { bunOnlyNote } from "./bun-only.js";
import { CompileFailure } from "./compile-failure.js";
import {
  findInToolSources,
  findRelativeSpecifier,
  importedName,
  locationAt,
  type SourcePlace,
  specifierOffset,
} from "./import-locations.js";
import { catchingEvaluation, type PreparedModule } from "./prepared-module.js";
import { isBareSpecifier } from "./tool-sources.js";

/**
 * Turns an error thrown while a compiled module was imported into the {@link CompileFailure}
 * the other compiler reports for the same fault before any code runs, so both give `E_COMPILE`
 * for faults of the import graph: an unresolved specifier (`Could not resolve "<specifier>"`,
 * as esbuild words it), a name an ES module does not export (`No matching export in "<module>"
 * for import "<name>"`), a malformed JSON file. Located where one of the tool's own files holds
 * it. `undefined` for any other error (the module's own throw); never throws.
 */
export function importFailure(error: unknown, entry: string): CompileFailure | undefined {
  try {
    return unresolved(error, entry) ?? missingExport(error, entry) ?? malformedJson(error);
  } catch {
    return undefined;
  }
}

function unresolved(error: unknown, entry: string): CompileFailure | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  const message = error instanceof Error ? String(error.message) : "";
  let specifier: string | undefined;
  let importer: string | undefined;
  if (code === "MODULE_NOT_FOUND") {
    specifier = /^Cannot find module '([^']+)'/.exec(message)?.[1];
    importer = /\nRequire stack:\n- (.+)/.exec(message)?.[1];
  } else if (code === "ERR_MODULE_NOT_FOUND") {
    const match = /^Cannot find (?:module|package) '([^']+)' imported from (.+)$/m.exec(message);
    specifier = match?.[1];
    importer = match?.[2];
  } else if (code === "ERR_UNKNOWN_BUILTIN_MODULE") {
    specifier = /^No such built-in module: (.+)$/.exec(message)?.[1];
  } else if (code === "ERR_UNSUPPORTED_ESM_URL_SCHEME") {
    // Bun's own modules (`bun:sqlite`) by their scheme; Node names no specifier, the source does.
    specifier = /Received protocol 'bun:'/.test(message) ? bunSpecifierIn(entry) : undefined;
  }
  if (specifier === undefined) return undefined;
  const written = specifier;
  let place: SourcePlace | undefined = findInToolSources(
    entry,
    (source) => specifierOffset(source, written),
    importer !== undefined && isAbsolute(importer) ? importer : undefined,
  );
  if (place === undefined && isAbsolute(specifier)) {
    // A relative import() esbuild left for run time names the file by its absolute path.
    const relative = findRelativeSpecifier(entry, specifier);
    if (relative !== undefined) {
      specifier = relative.specifier;
      place = relative;
    }
  }
  return new CompileFailure(`Could not resolve "${specifier}"${bunOnlyNote(specifier)}`, {
    file: place?.file ?? entry,
    location: place?.location,
    cause: error,
  });
}

const MISSING_EXPORT = /^The requested module '([^']+)' does not provide an export named '([^']+)'$/;

function missingExport(error: unknown, entry: string): CompileFailure | undefined {
  if (!(error instanceof SyntaxError)) return undefined;
  const match = MISSING_EXPORT.exec(String(error.message));
  if (match === null) return undefined;
  const [, reported = "", name = ""] = match;
  let specifier = reported;
  let place = findInToolSources(entry, (source) => importedName(source, reported, name)?.offset);
  if (place === undefined && reported.startsWith("file:")) {
    // An installed package, named by the file it resolved to: find the bare import of the name.
    place = findInToolSources(entry, (source) => {
      const found = importedName(source, isBareSpecifier, name);
      if (found !== undefined) specifier = found.specifier;
      return found?.offset;
    });
  }
  return new CompileFailure(`No matching export in "${specifier}" for import "${name}"`, {
    file: place?.file ?? entry,
    location: place?.location,
    cause: error,
  });
}

function malformedJson(error: unknown): CompileFailure | undefined {
  if (!(error instanceof SyntaxError)) return undefined;
  const match = /^(.+\.json): ([\s\S]+)$/.exec(String(error.message));
  if (match === null || !isAbsolute(match[1] as string)) return undefined;
  const [, file = "", text = ""] = match;
  // A file that vanished has no location: the message still names it.
  const source = orElse<string | undefined>(() => readFileSync(file, "utf8"), undefined);
  const offset = source === undefined ? undefined : jsonErrorOffset(source);
  const location = source === undefined || offset === undefined ? undefined : locationAt(source, offset);
  return new CompileFailure(`Malformed JSON: ${text.split("\n")[0]}`, { file, location, cause: error });
}

/** Wraps a compiled module so that a fault of its import graph ({@link importFailure}) throws as one. */
export function reportingImportFailures(prepared: PreparedModule, entry: string): PreparedModule {
  return catchingEvaluation(prepared, (error) => {
    throw importFailure(error, entry) ?? error;
  });
}

/** The first `bun:` specifier the tool's own files import, for an error that names none. */
function bunSpecifierIn(entry: string): string | undefined {
  let found: string | undefined;
  findInToolSources(entry, (source) => {
    const match = /["'](bun:[\w/-]+)["']/.exec(source);
    if (match === null) return undefined;
    found = match[1];
    return match.index + 1;
  });
  return found;
}

/**
 * The offset of the first fault that makes `text` invalid JSON, or `undefined`: Node 20's
 * `JSON.parse` message says what is wrong but not where, which esbuild would give. `jsonc-parser`
 * with what JSONC adds to JSON (comments, trailing commas) turned off.
 */
export function jsonErrorOffset(text: string): number | undefined {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const errors: ParseError[] = [];
  parse(text.slice(bom), errors, {
    disallowComments: true,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  const first = errors[0];
  return first === undefined ? undefined : first.offset + bom;
}
