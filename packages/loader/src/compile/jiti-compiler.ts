import { readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { createPathsMatcher, getTsconfig } from "get-tsconfig";
import { orElse } from "../discover/expand-path.js";
import { CompileFailure } from "./compile-failure.js";
import { canonicalHostSpecifier, ensureHostModules, getHostModule, HOST_SPECIFIERS } from "./host-modules.js";
import { importFailure } from "./import-failure.js";
import { checkJitiImports, isTypeScript, type Transform } from "./jiti-link-check.js";
import { type PreparedModule, preparedModule } from "./prepared-module.js";
import { isBareSpecifier, resolveRelative, toolSources } from "./tool-sources.js";

type CreateJiti = typeof import("jiti").createJiti;

let jitiModule: Promise<{ createJiti: CreateJiti }> | undefined;

/** jiti's transform errors end with `<file>:<line>:<column>`. */
const JITI_ERROR_LOCATION = /^(\w*Error): ([\s\S]*?)\s*\n\s*(.+):(\d+):(\d+)\s*$/;

/**
 * Evaluates an entry through jiti 2: a fresh module graph on every load (an edit is seen by the
 * next load), jiti's transform cache in `fsCache` (the checked `<cacheDir>/jiti`, or `false`:
 * never jiti's default, maybe in the system tmp), inline source maps, the host's shared modules
 * as virtual modules. Syntax errors become {@link CompileFailure}.
 */
export async function prepareWithJiti(entry: string, fsCache: string | false): Promise<PreparedModule> {
  jitiModule ??= import("jiti");
  const { createJiti } = await jitiModule;
  await ensureHostModules();
  const virtualModules: Record<string, unknown> = {};
  for (const specifier of HOST_SPECIFIERS) virtualModules[specifier] = getHostModule(specifier);
  const jiti = createJiti(entry, {
    moduleCache: false,
    fsCache,
    sourceMaps: true,
    interopDefault: true,
    virtualModules,
    alias: pathsAlias(entry),
  });
  const transform = transformOnce((options) => jiti.transform(options));
  return preparedModule(async () => {
    // A name an imported file lacks fails before any code runs, as it does natively and with
    // esbuild; jiti reads a name a stand-in lacks as `undefined`: W_HOST_EXPORT_MISSING.
    checkJitiImports(entry, transform);
    try {
      return withoutInteropDefault(await jiti.import(entry));
    } catch (error) {
      throw toCompileFailure(error) ?? importFailure(error, entry) ?? error;
    }
  });
}

/** Bare specifiers a source imports or requires (`@lib/greet`, `zod`). */
const BARE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(["'])([^"'\n./][^"'\n]*)\1/g;
/**
 * jiti's `alias`es for the tsconfig `paths` the tool's files use, as the bundle resolves them:
 * each bare specifier a tool file imports that a `paths` pattern of the entry's tsconfig maps to
 * one of the tool's own files (the first found) leads there exactly; one that maps to nothing
 * stays a package import (jiti's aliases are prefixes: a pattern cannot be handed over).
 */
function pathsAlias(entry: string): Record<string, string> {
  const found = orElse(() => getTsconfig(dirname(entry)), null);
  const matcher = found?.config.compilerOptions?.paths === undefined ? null : createPathsMatcher(found);
  if (matcher === null) return {};
  const alias: Record<string, string> = {};
  /** The targets of the aliased imports of one file, added to `alias` (and walked). */
  const aliased = (_file: string, source: string): string[] => {
    const targets: string[] = [];
    for (const match of source.matchAll(BARE_IMPORT)) {
      const specifier = match[2] as string;
      if (Object.hasOwn(alias, specifier) || !isBareSpecifier(specifier)) continue;
      if (canonicalHostSpecifier(specifier) !== undefined) continue; // the host's, always
      const target = matcher(specifier)
        .map((candidate) => resolveRelative(dirname(candidate), `./${basename(candidate)}`))
        .find((resolved) => resolved !== undefined);
      if (target === undefined) continue;
      alias[specifier] = target;
      targets.push(target);
    }
    return targets;
  };
  // The walk's own work is what `aliased` finds in each file.
  for (const _file of toolSources(entry, aliased));
  return alias;
}

function toCompileFailure(error: unknown): CompileFailure | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = JITI_ERROR_LOCATION.exec(error.message);
  if (match === null) return undefined;
  const [, , text = "", file = "", lineText = "0", columnText = "0"] = match;
  const line = Number(lineText);
  const column = Number(columnText) + 1;
  // A file that vanished has no line to show; the location still says where.
  const sourceLine = orElse(() => readFileSync(file, "utf8").split(/\r?\n/)[line - 1] ?? "", "");
  return new CompileFailure(text.replace(/\s*\(\d+:\d+\)$/, ""), {
    file,
    location: { line, column, lineText: sourceLine },
    cause: error,
  });
}

/**
 * The module as Node sees it: jiti's `interopDefault` answers `default` with the whole module
 * when it has none, and a module without a factory must be described alike on both compilers.
 */
function withoutInteropDefault(value: unknown): unknown {
  if (typeof value !== "object" || value === null || "default" in value) return value;
  return new Proxy(value, {
    get: (target, key) => (key === "default" ? undefined : (target as Record<PropertyKey, unknown>)[key]),
  });
}

/** jiti's transform, run once per file and source text (the check may ask for a file twice). */
function transformOnce(
  transform: (options: { source: string; filename: string; ts: boolean }) => string,
): Transform {
  const done = new Map<string, { source: string; code: string }>();
  return (file, source) => {
    const previous = done.get(file);
    if (previous?.source === source) return previous.code;
    const code = transform({ source, filename: file, ts: isTypeScript(file) });
    done.set(file, { source, code });
    return code;
  };
}
