import { dirname, join, resolve, sep } from "node:path";
import type { BuildFailure, BuildOptions, Message, OutputFile } from "esbuild";
import { CompileFailure } from "./compile-failure.js";
import { type EntryGraph, entryGraphs } from "./entry-graph.js";
import { type BundleRecord, createToolBundlePlugin } from "./esbuild-plugin.js";
import type { InputRecord } from "./read-input.js";

type Esbuild = typeof import("esbuild");

/** Stands in for the entry path in the shared banner; replaced per output (line 1, no mappings). */
const ENTRY_PLACEHOLDER = "__TOOLDOCK_ENTRY_PATH__";

/** The build options every tool bundle uses (they are part of the cache key). */
export const BUILD_OPTIONS = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // A separate `.map` beside the bundle (linked by a comment added when it is written): V8
  // does not scan a large inline map, and Node reads it only when source maps are enabled.
  sourcemap: "external",
  sourcesContent: false,
  write: false,
  metafile: true,
  logLevel: "silent",
  // ASCII-only output (non-ASCII text escaped, e.g. `\u2026`): V8 keeps a module's source for
  // its lifetime, and one character above U+00FF makes the whole text two bytes a character.
  charset: "ascii",
  define: { require: "__tooldockRequire" },
  banner: {
    js: `import { createRequire as __tooldockCreateRequire } from "node:module"; var __tooldockRequire = __tooldockCreateRequire(${JSON.stringify(ENTRY_PLACEHOLDER)});`,
  },
} satisfies BuildOptions;

/** One entry's bundle, not yet written. */
export interface BuiltEntry {
  code: string;
  /** The source map; its `sources` are relative to the folder the build was told to write to. */
  map: string;
  graph: EntryGraph;
  /** Source files the plugin read and hashed while building (a subset of `graph.files`). */
  sources: ReadonlyMap<string, InputRecord>;
  /** External imports as written into the bundle → absolute path of the package file. */
  externals: ReadonlyMap<string, string>;
}

/** The outcome of each entry of {@link buildEntries}. */
export type BuildOutcome = BuiltEntry | CompileFailure;

/**
 * Bundles many entries with one `esbuild.build` (one service round trip and one pass of
 * the plugin over shared files, instead of one build per entry). A build that fails is split
 * in halves and retried until each failure is pinned to its entry, so one broken module costs
 * about log2(n) extra builds and never fails the others.
 */
export async function buildEntries(
  esbuild: Esbuild,
  entries: readonly string[],
  outdir: string,
): Promise<Map<string, BuildOutcome>> {
  const outcomes = new Map<string, BuildOutcome>();
  await buildGroup(esbuild, entries, outdir, outcomes);
  return outcomes;
}

async function buildGroup(
  esbuild: Esbuild,
  entries: readonly string[],
  outdir: string,
  outcomes: Map<string, BuildOutcome>,
): Promise<void> {
  const workingDir = commonDirectory(entries);
  const record: BundleRecord = { externals: new Map(), sources: new Map() };
  let result: Awaited<ReturnType<typeof esbuild.build<typeof BUILD_OPTIONS>>>;
  try {
    result = await esbuild.build({
      ...BUILD_OPTIONS,
      entryPoints: entries.map((entry, index) => ({ in: entry, out: String(index) })),
      absWorkingDir: workingDir,
      // Nothing is written (write: false); source map paths are made relative to this folder.
      outdir,
      plugins: [createToolBundlePlugin(record)],
    });
  } catch (error) {
    if (entries.length > 1 && isBuildFailure(error)) {
      const half = Math.ceil(entries.length / 2);
      await Promise.all([
        buildGroup(esbuild, entries.slice(0, half), outdir, outcomes),
        buildGroup(esbuild, entries.slice(half), outdir, outcomes),
      ]);
      return;
    }
    for (const entry of entries) outcomes.set(entry, toCompileFailure(error, workingDir));
    return;
  }
  const files = new Map<string, OutputFile>(result.outputFiles.map((file) => [file.path, file]));
  const graphs = entryGraphs(result.metafile, workingDir, entries);
  for (const [index, entry] of entries.entries()) {
    const code = files.get(join(outdir, `${index}.js`))?.text ?? "";
    outcomes.set(entry, {
      code: code.replace(JSON.stringify(ENTRY_PLACEHOLDER), () => JSON.stringify(entry)),
      map: files.get(join(outdir, `${index}.js.map`))?.text ?? "",
      graph: graphs.get(entry) as EntryGraph,
      sources: record.sources,
      externals: record.externals,
    });
  }
}

/** The deepest folder that holds every entry (esbuild reports paths relative to it). */
export function commonDirectory(entries: readonly string[]): string {
  let common = dirname(entries[0] ?? sep);
  for (const entry of entries) {
    while (!entry.startsWith(common.endsWith(sep) ? common : `${common}${sep}`)) {
      const parent = dirname(common);
      if (parent === common) break;
      common = parent;
    }
  }
  return common;
}

function isBuildFailure(error: unknown): boolean {
  return Array.isArray((error as Partial<BuildFailure> | null)?.errors);
}

function toCompileFailure(error: unknown, workingDir: string): CompileFailure {
  const messages: Message[] = (error as Partial<BuildFailure> | null)?.errors ?? [];
  const first = messages[0];
  if (first === undefined) {
    return new CompileFailure(error instanceof Error ? error.message : String(error), { cause: error });
  }
  const location = first.location;
  const file = location?.file ? resolve(workingDir, location.file) : undefined;
  const more =
    messages.length > 1 ? ` (and ${messages.length - 1} more error${messages.length > 2 ? "s" : ""})` : "";
  return new CompileFailure(`${hostNamesAsWritten(first.text)}${more}`, {
    file,
    location: location
      ? {
          line: location.line,
          column: utf16Column(location.lineText, location.column),
          lineText: location.lineText,
        }
      : undefined,
    cause: error,
  });
}

/**
 * esbuild names a host module by its virtual path (`"tooldock-host:@tooldock/sdk"`); the tool
 * wrote `"@tooldock/sdk"`, which is what jiti reports too.
 */
function hostNamesAsWritten(text: string): string {
  return text.replace(/"tooldock-host:([^"?]*)(?:\?[^"]*)?"/g, '"$1"');
}

/**
 * esbuild counts columns in UTF-8 bytes; diagnostics (and jiti, and editors) count UTF-16 code
 * units, as JavaScript strings do. The 1-based column of the character at `byteColumn`.
 */
function utf16Column(lineText: string, byteColumn: number): number {
  return Buffer.from(lineText, "utf8").subarray(0, byteColumn).toString("utf8").length + 1;
}
