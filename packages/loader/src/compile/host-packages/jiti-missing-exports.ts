import { readFileSync, statSync } from "node:fs";
import { dirname, extname, join, resolve, sep } from "node:path";
import { cjsValueImports, relativeSpecifiers } from "./value-imports.js";

/** How many files of one tool the scan reads at most (a tool's own sources, not packages). */
const MAX_FILES = 500;
const EXTENSIONS = [".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"];

type Transform = (options: { source: string; filename: string; ts: boolean }) => string;

/**
 * The names a tool's own sources (the entry and the files it imports relatively) read from
 * stand-in packages and the stand-in lacks, found in jiti's own transform of each file (so
 * imports used only as types are dropped just as jiti drops them). Files that name no
 * stand-in package are only scanned for their relative imports.
 */
export function jitiMissingExports(
  entry: string,
  transform: Transform,
  standIns: readonly string[],
  isStandIn: (specifier: string) => boolean,
  lacks: (specifier: string, name: string) => boolean,
): Map<string, string[]> {
  const missing = new Map<string, Set<string>>();
  const queue = [resolve(entry)];
  const visited = new Set<string>(queue);
  for (let index = 0; index < queue.length && index < MAX_FILES; index += 1) {
    const file = queue[index] as string;
    let source: string;
    try {
      source = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const specifier of relativeSpecifiers(source)) {
      const target = resolveRelative(dirname(file), specifier);
      if (target !== undefined && !visited.has(target)) {
        visited.add(target);
        queue.push(target);
      }
    }
    if (!standIns.some((specifier) => source.includes(specifier))) continue;
    let code: string;
    try {
      code = transform({ source, filename: file, ts: /\.[cm]?tsx?$/.test(file) });
    } catch {
      continue; // jiti reports the syntax error itself when it evaluates the module
    }
    for (const [specifier, names] of cjsValueImports(code, isStandIn)) {
      for (const name of names) {
        if (!lacks(specifier, name)) continue;
        let set = missing.get(specifier);
        if (set === undefined) {
          set = new Set();
          missing.set(specifier, set);
        }
        set.add(name);
      }
    }
  }
  return new Map([...missing].map(([specifier, names]) => [specifier, [...names].sort()]));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A relative import as Node and TypeScript resolve it: as written, `.js` → `.ts`, extensions, `index`. */
export function resolveRelative(folder: string, specifier: string): string | undefined {
  const base = join(folder, specifier);
  if (base.split(sep).includes("node_modules")) return undefined;
  const candidates = [base];
  const extension = extname(base);
  if ([".js", ".mjs", ".cjs", ".jsx"].includes(extension)) {
    const stem = base.slice(0, -extension.length);
    candidates.push(`${stem}${extension.replace("j", "t")}`);
  }
  for (const candidate of EXTENSIONS) candidates.push(`${base}${candidate}`);
  for (const candidate of EXTENSIONS) candidates.push(join(base, `index${candidate}`));
  return candidates.find(isFile);
}
