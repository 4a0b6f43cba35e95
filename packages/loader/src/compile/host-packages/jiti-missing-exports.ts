import { toolSources } from "../tool-sources.js";
import { cjsValueImports } from "./value-imports.js";

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
  for (const { file, source } of toolSources(entry)) {
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
