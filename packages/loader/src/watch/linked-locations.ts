import { lstatSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isWithin, orElse } from "../discover/expand-path.js";
import type { DiscoveredModule } from "../discover/types.js";

/** The symbolic links on the way to a load's modules, and where those a watch misses lead. */
export interface LinkedLocations {
  /**
   * The first link on the way to each module found through one inside a watched folder: a
   * recursive `fs.watch` watches where a link leads, not the link, so one pointed elsewhere,
   * removed or replaced by a folder goes unseen there.
   */
  links: string[];
  /**
   * Where those links really lead, for modules whose real path lies outside every watched
   * location (a tool folder linked in from a project, `npm link`): `fs.watch` follows no link
   * inside a folder it watches, so an edit there (a helper in a subfolder) goes unseen. For
   * each such module, the real path of the first link on its way from the location it was
   * found in: a linked folder, or the linked file itself (a module path that is a link: a file
   * location is watched through its folder, where only the link is).
   */
  targets: string[];
}

export function linkedLocations(
  modules: readonly DiscoveredModule[],
  locations: readonly string[],
): LinkedLocations {
  // A watched folder is watched where it really is (`fs.watch` follows the link it is given).
  const realLocations = locations.map((location) => (isFolder(location) ? realOr(location) : location));
  const links = new Set<string>();
  const targets = new Set<string>();
  for (const { path, resolvedPath } of modules) {
    if (path === resolvedPath) continue; // found through no link
    const location = locations.find((candidate) => isWithin(path, candidate));
    if (location === undefined) continue;
    const watched = realLocations.some((real) => isWithin(resolvedPath, real));
    let at = location;
    for (const segment of relative(location, path).split(sep)) {
      at = join(at, segment);
      if (!orElse(() => lstatSync(at).isSymbolicLink(), false)) continue;
      if (at !== location) links.add(at);
      const target = realOr(at);
      if (!watched && !realLocations.some((real) => isWithin(target, real))) targets.add(target);
      break;
    }
  }
  return { links: [...links], targets: [...targets] };
}

/** Whether `path` is a folder (through links), `false` when it cannot be read. */
export function isFolder(path: string): boolean {
  return orElse(() => statSync(path).isDirectory(), false);
}

function realOr(path: string): string {
  return orElse(() => realpathSync(path), path);
}
