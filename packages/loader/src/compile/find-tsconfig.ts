import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** The tsconfig that applies to a file, as the compile cache keys it. */
export interface TsconfigSnapshot {
  path: string;
  hash: string;
}

/**
 * The nearest `tsconfig.json` from a file's folder up to the root, with a hash of its content
 * (`extends` is not followed), or `null` when there is none.
 */
export async function findTsconfig(
  file: string,
  hashContent: (text: string) => string,
): Promise<TsconfigSnapshot | null> {
  let directory = dirname(file);
  for (;;) {
    const candidate = join(directory, "tsconfig.json");
    try {
      return { path: candidate, hash: hashContent(await readFile(candidate, "utf8")) };
    } catch {
      // Not here; keep walking up.
    }
    const parent = dirname(directory);
    if (parent === directory) return null;
    directory = parent;
  }
}
