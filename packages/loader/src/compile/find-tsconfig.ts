import { dirname, join } from "node:path";
import { parseTsconfig } from "get-tsconfig";
import { hash } from "./hash.js";
import { isFile } from "./tool-sources.js";

/** The tsconfig that applies to a file, as the compile cache keys it. */
export interface TsconfigSnapshot {
  path: string;
  /** Hash over the content of the file and of every config it `extends`, and the result. */
  hash: string;
}

/** Folder → the tsconfig that applies to files in it; share one per load batch. */
export type TsconfigMemo = Map<string, TsconfigSnapshot | null>;

/**
 * The nearest `tsconfig.json` from a file's folder up, with a hash of it and of the configs it
 * `extends` (followed by `get-tsconfig` as TypeScript does), or `null`. Synchronous (a `stat`
 * per folder costs microseconds; a promise read is four thread-pool round trips). With `memo`,
 * every folder walked records the answer, for the batch's other entries.
 */
export function findTsconfig(file: string, memo: TsconfigMemo = new Map()): TsconfigSnapshot | null {
  const config = (folder: string) => {
    const candidate = join(folder, "tsconfig.json");
    return isFile(candidate) ? { path: candidate, hash: hash(chainContent(candidate)) } : undefined;
  };
  return nearestUp(file, memo, config, null);
}

/**
 * What `at` says of the nearest folder from `file`'s up to the root that it says anything of
 * (`undefined`: look further up), else `atRoot`. Every folder walked records it in `memo`.
 */
export function nearestUp<T extends {} | null>(
  file: string,
  memo: Map<string, T>,
  at: (folder: string) => T | undefined,
  atRoot: T,
): T {
  const walked: string[] = [];
  let found: T | undefined;
  for (let folder = dirname(file); found === undefined; folder = dirname(folder)) {
    found = memo.get(folder);
    if (found !== undefined) break;
    walked.push(folder);
    found = at(folder);
    if (found === undefined && dirname(folder) === folder) found = atRoot;
  }
  for (const each of walked) memo.set(each, found);
  return found;
}

/**
 * The text of every file `get-tsconfig` read to resolve the config (from its file cache, in
 * reading order), then the resolved config or why it could not be resolved: an edit anywhere in
 * the chain changes it, even one the parse hides, and so does a missing base that appears.
 */
function chainContent(path: string): string {
  const reads = new Map<string, string>(); // also holds stats and booleans, typed as the library types it
  let resolved: string;
  try {
    resolved = JSON.stringify(parseTsconfig(path, reads));
  } catch (error) {
    resolved = `unresolved: ${error instanceof Error ? error.message : String(error)}`;
  }
  const texts = [...reads]
    .filter(([key, value]) => key.startsWith("readFileSync:") && typeof value === "string")
    .map(([, text]) => text);
  return [...texts, resolved].join("\0");
}
