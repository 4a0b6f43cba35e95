import { readFileSync, statSync } from "node:fs";
import { dirname, extname, join, resolve, sep } from "node:path";
import { orElse } from "../discover/expand-path.js";
import { relativeSpecifiers } from "./host-packages/value-imports.js";

/** How many of a tool's own files a walk reads at most (its sources, not its packages). */
const MAX_FILES = 500;
/** The extensions of source files, in the order a relative import without one tries them. */
export const SOURCE_EXTENSIONS = [".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"];

/**
 * The entry and the files it imports or requires relatively, entry first, with their text (at
 * most {@link MAX_FILES}; none unreadable, none in `node_modules`). `also` names more files a
 * file leads to (a tsconfig alias's target), walked the same way.
 */
export function* toolSources(
  entry: string,
  also?: (file: string, source: string) => readonly string[],
): Generator<{ file: string; source: string }> {
  const queue = [resolve(entry)];
  const visited = new Set(queue);
  for (let index = 0; index < queue.length && index < MAX_FILES; index += 1) {
    const file = queue[index] as string;
    const source = orElse<string | undefined>(() => readFileSync(file, "utf8"), undefined);
    if (source === undefined) continue;
    yield { file, source };
    const targets = relativeSpecifiers(source).map((specifier) => resolveRelative(dirname(file), specifier));
    for (const target of also === undefined ? targets : [...targets, ...also(file, source)]) {
      if (target !== undefined && !visited.has(target)) {
        visited.add(target);
        queue.push(target);
      }
    }
  }
}

/** Whether an import specifier names a package (`zod`, `@scope/pkg/sub`): no path, no URL scheme. */
export function isBareSpecifier(specifier: string): boolean {
  return !/^(?:\.{1,2}(?:\/|$)|\/|[A-Za-z]:[\\/]|[a-z][a-z0-9+.-]*:)/i.test(specifier);
}

/** Whether `path` is a file (`false` for anything that cannot be stat'ed). */
export function isFile(path: string): boolean {
  // `throwIfNoEntry`: no error built for a miss.
  return orElse(() => statSync(path, { throwIfNoEntry: false })?.isFile() === true, false);
}

/** Whether `path` lies in a `node_modules` folder: a package's, not one of the tool's own sources. */
export function isInNodeModules(path: string): boolean {
  return path.split(sep).includes("node_modules");
}

/** A relative import as Node and TypeScript resolve it: as written, `.js` → `.ts`, extensions, `index`. */
export function resolveRelative(folder: string, specifier: string): string | undefined {
  const base = join(folder, specifier);
  if (isInNodeModules(base)) return undefined;
  const candidates = [base];
  const extension = extname(base);
  if ([".js", ".mjs", ".cjs", ".jsx"].includes(extension)) {
    const stem = base.slice(0, -extension.length);
    candidates.push(`${stem}${extension.replace("j", "t")}`);
  }
  for (const candidate of SOURCE_EXTENSIONS) candidates.push(`${base}${candidate}`);
  for (const candidate of SOURCE_EXTENSIONS) candidates.push(join(base, `index${candidate}`));
  return candidates.find(isFile);
}
