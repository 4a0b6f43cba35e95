import { dirname, resolve, sep } from "node:path";
import type { BuildFailure, BuildOptions, Message } from "esbuild";
import { CompileFailure } from "./compile-failure.js";

/** Stands in for the entry path in the shared banner; replaced per output (line 1, no mappings). */
export const ENTRY_PLACEHOLDER = "__TOOLDOCK_ENTRY_PATH__";

/** The build options of every pack (part of the cache key); a pack of several members drops the `require` banner. */
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
  // Legal comments stay where they are, not gathered at the end of a pack, where the pack's
  // virtual entry must be last (see `syncMembers`).
  legalComments: "inline",
  define: { require: "__tooldockRequire" },
  banner: {
    // The host's `require` gives host modules their registered copies (see `hostAwareRequire`).
    js: `import { createRequire as __tooldockCreateRequire } from "node:module"; var __tooldockRequire = __tooldockCreateRequire(${JSON.stringify(ENTRY_PLACEHOLDER)}); __tooldockRequire = globalThis[Symbol.for("tooldock.host-require")]?.(__tooldockRequire) ?? __tooldockRequire;`,
  },
} satisfies BuildOptions;

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

/** Whether esbuild failed on the sources (its messages say where), not as a whole. */
export function isBuildFailure(error: unknown): boolean {
  return Array.isArray((error as Partial<BuildFailure> | null)?.errors);
}

/** The first of a failed build's messages as a `CompileFailure`, located in its source file. */
export function toCompileFailure(error: unknown, workingDir: string): CompileFailure {
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

/** esbuild names a host module by its virtual path (`"tooldock-host:zod"`); the tool (and jiti) `"zod"`. */
function hostNamesAsWritten(text: string): string {
  return text.replace(/"tooldock-host:([^"?]*)(?:\?[^"]*)?"/g, '"$1"');
}

/** The 1-based UTF-16 column (as diagnostics, jiti and editors count) of esbuild's UTF-8 `byteColumn`. */
function utf16Column(lineText: string, byteColumn: number): number {
  return Buffer.from(lineText, "utf8").subarray(0, byteColumn).toString("utf8").length + 1;
}
