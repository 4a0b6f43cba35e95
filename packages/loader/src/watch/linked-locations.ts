import { lstatSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isWithin } from "../discover/expand-path.js";
import type { DiscoveredModule } from "../discover/types.js";

/**
 * Where the modules a load found through a symbolic link really are, for those whose real
 * path lies outside every watched location (a tool folder linked in from a project, `npm
 * link`): `fs.watch` follows no link inside a folder it watches, so an edit there (a helper
 * in a subfolder) goes unseen. For each such module, the real path of the first link on its
 * way from the location it was found in: a linked folder, or the linked file itself (a module
 * path that is a link: a file location is watched through its folder, where only the link is).
 */
export function linkedLocations(
  modules: readonly DiscoveredModule[],
  locations: readonly string[],
): string[] {
  // A watched folder is watched where it really is (`fs.watch` follows the link it is given).
  const realLocations = locations.map((location) => (isFolder(location) ? realOr(location) : location));
  const found = new Set<string>();
  for (const { path, resolvedPath } of modules) {
    if (realLocations.some((location) => isWithin(resolvedPath, location))) continue;
    const location = locations.find((candidate) => isWithin(path, candidate));
    if (location === undefined) continue;
    let at = location;
    for (const segment of relative(location, path).split(sep)) {
      at = join(at, segment);
      if (!isLink(at)) continue;
      const target = realOr(at);
      if (!realLocations.some((watched) => isWithin(target, watched))) found.add(target);
      break;
    }
  }
  return [...found];
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
