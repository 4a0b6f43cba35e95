// Removes what `tsc -b` left in a package's `dist/` from a source that no longer exists: the
// compiler writes each source's `.js`, `.d.ts` and their maps but never deletes the outputs of
// a source that was moved or deleted, so a working copy keeps them, `release:pack` would ship
// them and `release:check` fails on the maps that name a missing source. Run before each
// build (`pnpm build`); a fresh clone has none.
//
//   node scripts/prune-stale-outputs.mjs [ROOT]     (ROOT: the repository; default: this one)
//
// An output is stale when its map (one source, as tsc writes it; bundles name many and are
// left alone) names a file under the package's `src/` that is not there.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const MAP_ENDINGS = [".js.map", ".d.ts.map"];

/**
 * Deletes the stale outputs under every `packages/<name>/dist` of `root` and returns their
 * paths (the generated file and its map), relative to `root`.
 * @param {string} root
 * @returns {string[]}
 */
export function pruneStaleOutputs(root) {
  const removed = [];
  const packagesDir = join(root, "packages");
  if (!existsSync(packagesDir)) return removed;
  for (const name of readdirSync(packagesDir)) {
    const dist = join(packagesDir, name, "dist");
    const src = join(packagesDir, name, "src");
    if (!existsSync(dist)) continue;
    for (const map of mapsUnder(dist)) {
      const source = onlySource(map);
      if (source === undefined || !isInside(source, src) || existsSync(source)) continue;
      const generated = map.slice(0, -".map".length);
      for (const file of [generated, map]) {
        if (!existsSync(file)) continue;
        rmSync(file);
        removed.push(relative(root, file));
      }
    }
  }
  return removed;
}

/** @param {string} folder @returns {string[]} */
function mapsUnder(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && MAP_ENDINGS.some((ending) => entry.name.endsWith(ending)))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

/** The one source a map names, absolute; undefined for a map of several or one unreadable. */
function onlySource(/** @type {string} */ map) {
  try {
    const { sources, sourceRoot } = JSON.parse(readFileSync(map, "utf8"));
    if (!Array.isArray(sources) || sources.length !== 1 || typeof sources[0] !== "string") return undefined;
    return resolve(dirname(map), typeof sourceRoot === "string" ? sourceRoot : "", sources[0]);
  } catch {
    return undefined;
  }
}

/** @param {string} path @param {string} root */
function isInside(path, root) {
  return path.startsWith(root + sep);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url)));
  const removed = pruneStaleOutputs(root);
  if (removed.length > 0)
    process.stdout.write(
      `prune: removed ${removed.length} stale build outputs:\n  ${removed.join("\n  ")}\n`,
    );
}
