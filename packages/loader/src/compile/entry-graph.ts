import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Metafile } from "esbuild";
import { HOST_NAMESPACE } from "./esbuild-plugin.js";

/** What one entry of a (possibly multi-entry) build was made of. */
export interface EntryGraph {
  /** Absolute paths of its source files, the entry first, each once (`./a.js?v=1` as `a.js`). */
  files: string[];
  /** Host specifiers it reads from the registry. */
  hostModules: string[];
  /** External imports exactly as written into the bundle (file URLs, paths, `node:` names). */
  externals: string[];
}

/**
 * Walks the metafile's import graph from each entry. Every file esbuild loaded counts, also one
 * that contributes no bytes (tree-shaken now, maybe not after an edit).
 */
export function entryGraphs(
  metafile: Metafile,
  workingDir: string,
  entries: readonly string[],
): Map<string, EntryGraph> {
  const keys = new Map<string, string>();
  for (const key of Object.keys(metafile.inputs)) {
    if (!isVirtual(key)) keys.set(resolve(workingDir, key), key);
  }
  return new Map(entries.map((entry) => [entry, walk(metafile, workingDir, keys.get(entry))]));
}

function walk(metafile: Metafile, workingDir: string, start: string | undefined): EntryGraph {
  const graph: EntryGraph = { files: [], hostModules: [], externals: [] };
  if (start === undefined) return graph;
  const seen = new Set<string>([start]);
  const queue = [start];
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    if (key.startsWith(`${HOST_NAMESPACE}:`)) graph.hostModules.push(key.slice(HOST_NAMESPACE.length + 1));
    else if (!isVirtual(key)) {
      const file = withoutSuffix(resolve(workingDir, key));
      if (!graph.files.includes(file)) graph.files.push(file);
    }
    for (const imported of metafile.inputs[key]?.imports ?? []) {
      if (imported.external) graph.externals.push(imported.path);
      else if (!seen.has(imported.path) && metafile.inputs[imported.path] !== undefined) {
        seen.add(imported.path);
        queue.push(imported.path);
      }
    }
  }
  return graph;
}

/** `path` without the `?query` or `#hash` esbuild kept on it, unless that is the file's own name. */
function withoutSuffix(path: string): string {
  const at = path.search(/[?#]/);
  return at === -1 || existsSync(path) ? path : path.slice(0, at);
}

/** `namespace:path` keys (host modules, esbuild's own) are not files. */
function isVirtual(key: string): boolean {
  return /^[a-z-]+:/.test(key);
}
