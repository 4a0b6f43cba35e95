import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { decode, encode, type SourceMapMappings } from "@jridgewell/sourcemap-codec";
import { writeFileAtomicSync } from "./atomic-write.js";
import { bundlePath } from "./bundle-index.js";
import { hash } from "./hash.js";
import { PACK_EXPORT, PACK_FORMAT_VERSION, type PackMember, packPath } from "./pack-id.js";
import { builtinAlias, loadThunkLexer, type ThunkBody, toThunkBody } from "./thunk-body.js";
import { mapPath } from "./write-bundle.js";

interface SourceMapJson {
  sources?: string[];
  names?: string[];
  mappings?: string;
}

/**
 * Writes the pack of `members`: one ES module whose {@link PACK_EXPORT} export holds, per member, an
 * `async function` wrapping its bundle ({@link toThunkBody}), or `null` for a bundle that
 * must be imported on its own. Importing the pack runs no tool code (only Node built-ins
 * are imported); calling a function evaluates that member, each time it is called. The
 * members' source maps are merged into one linked map, so stack traces still name the
 * `.ts` lines. Written atomically (map first); replaces the previous pack of the same
 * members' entries. Returns how many members were wrapped. Throws when the cache cannot be
 * read or written.
 */
export async function writePack(
  cacheDir: string,
  id: string,
  members: readonly PackMember[],
): Promise<number> {
  await loadThunkLexer();
  const thunks = members.map((member) => readThunk(cacheDir, member.key));
  const builtins = new Set(thunks.flatMap((thunk) => thunk?.body.builtins ?? []));
  const lines: string[] = [
    `// Tooldock pack ${PACK_FORMAT_VERSION}: ${members.length} tool bundles, each run when its function is called.`,
    ...[...builtins]
      .sort()
      .map((specifier) => `import * as ${builtinAlias(specifier)} from ${JSON.stringify(specifier)};`),
    `export const ${PACK_EXPORT} = [`,
  ];
  const mappings: SourceMapMappings = lines.map(() => []);
  const sources: string[] = [];
  const names: string[] = [];
  for (const [index, thunk] of thunks.entries()) {
    const member = members[index] as PackMember;
    if (thunk === undefined) {
      lines.push(`null, // ${describePath(member.entry)}: imported on its own`);
      mappings.push([]);
      continue;
    }
    // The bindings of its imports open the function, before any of its code (no line added).
    lines.push(`async function () { ${thunk.body.header} // ${describePath(member.entry)}`);
    mappings.push([]);
    const bodyLines = thunk.body.body.split("\n");
    const memberMappings = decode(thunk.map.mappings ?? "");
    const sourceOffset = sources.length;
    const nameOffset = names.length;
    sources.push(...(thunk.map.sources ?? []));
    names.push(...(thunk.map.names ?? []));
    for (const [line, text] of bodyLines.entries()) {
      lines.push(text);
      mappings.push(
        (memberMappings[line] ?? []).map((segment) => {
          if (segment.length === 1) return segment;
          const [column, source, originalLine, originalColumn] = segment;
          return segment.length === 5
            ? [column, source + sourceOffset, originalLine, originalColumn, segment[4] + nameOffset]
            : [column, source + sourceOffset, originalLine, originalColumn];
        }),
      );
    }
    lines.push("},");
    mappings.push([]);
  }
  lines.push("];");
  const path = packPath(cacheDir, id);
  const map = { version: 3, sources, names, mappings: encode(mappings) };
  writeFileAtomicSync(mapPath(cacheDir, `pack-${id}`), JSON.stringify(map));
  writeFileAtomicSync(path, `${lines.join("\n")}\n//# sourceMappingURL=../maps/pack-${id}.mjs.map\n`);
  replaceSlot(cacheDir, members, id);
  sweepOldPacks(cacheDir);
  return thunks.filter((thunk) => thunk !== undefined).length;
}

/** Packs not written for this long are removed when another pack is written. */
const PACK_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Removes packs (and their maps and slots) written more than {@link PACK_MAX_AGE_MS} ago: the
 * packs of groups whose membership changed are never read again, and a pack still in use is
 * only a few milliseconds to write anew when its next load misses it. Runs only when a pack is
 * written (a change), never on a warm start; a file it cannot read or remove is left alone.
 */
function sweepOldPacks(cacheDir: string, now: number = Date.now()): void {
  const sweep = (directory: string, isPackFile: (name: string) => boolean) => {
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      return;
    }
    for (const name of names) {
      if (!isPackFile(name)) continue;
      const path = join(directory, name);
      try {
        if (now - statSync(path).mtimeMs > PACK_MAX_AGE_MS) rmSync(path, { force: true });
      } catch {
        // Removed meanwhile, or not ours to remove: leave it.
      }
    }
  };
  sweep(join(cacheDir, "bundles"), (name) => /^pack-[0-9a-f]{40}\.mjs$/.test(name));
  sweep(join(cacheDir, "maps"), (name) => /^pack-[0-9a-f]{40}\.mjs\.map$/.test(name));
  sweep(join(cacheDir, "packs"), (name) => /^[0-9a-f]{32}\.json$/.test(name));
}

/**
 * A path for a `//` comment: JSON-quoted, with the two characters that end a comment line in
 * JavaScript but that JSON leaves as they are (U+2028, U+2029) escaped too.
 */
function describePath(path: string): string {
  return JSON.stringify(path)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function readThunk(cacheDir: string, key: string): { body: ThunkBody; map: SourceMapJson } | undefined {
  const body = toThunkBody(readFileSync(bundlePath(cacheDir, key), "utf8"));
  if (body === undefined) return undefined;
  const map = JSON.parse(readFileSync(mapPath(cacheDir, key), "utf8")) as SourceMapJson;
  return { body, map };
}

/**
 * Records which pack holds these entries now and removes the one that held them before
 * (an edited tool changes its key, so its chunk gets a new pack). A lost race between two
 * processes leaves an extra pack behind, never a missing one.
 */
function replaceSlot(cacheDir: string, members: readonly PackMember[], id: string): void {
  const slot = join(
    cacheDir,
    "packs",
    `${hash(members.map((member) => member.entry).join("\n")).slice(0, 32)}.json`,
  );
  let previous: string | undefined;
  try {
    previous = (JSON.parse(readFileSync(slot, "utf8")) as { id?: string }).id;
  } catch {
    previous = undefined;
  }
  writeFileAtomicSync(slot, JSON.stringify({ id }));
  if (previous === undefined || previous === id || !/^[0-9a-f]{40}$/.test(previous)) return;
  rmSync(packPath(cacheDir, previous), { force: true });
  rmSync(mapPath(cacheDir, `pack-${previous}`), { force: true });
}
