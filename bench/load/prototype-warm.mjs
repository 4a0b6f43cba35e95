// NOT Tooldock: a ~60-line prototype of the warm-cache fixes proposed in BENCHMARKS.md, run
// on the cache Tooldock's esbuild compiler wrote, to show what those fixes reach on this
// machine. Same checks as `findCurrentBundle` (index entry, bundle present, nearest tsconfig,
// every input's content hash, externals present), but: synchronous reads (no thread-pool
// round trip per small file), the tsconfig walk memoised per folder, discovery streamed
// (the first module is checked and imported before the folder is fully listed), source maps
// left as the host set them, and a bounded window of imports in flight while factories run
// one at a time, in discovery order.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const WINDOW = 32;
const hash = (/** @type {string | Buffer} */ content) => createHash("sha256").update(content).digest("hex");

/**
 * @param {{ toolsDir: string; cacheDir: string; session: any; pi: unknown;
 *   onReady: (tools: unknown[]) => void }} options
 */
export async function loadWithPrototype(options) {
  const { toolsDir, cacheDir, session, pi, onReady } = options;
  /** @type {Map<string, unknown>} */
  const tsconfigs = new Map();
  /** @param {string} file */
  const nearestTsconfig = (file) => {
    const visited = [];
    let directory = dirname(file);
    let found = null;
    for (;;) {
      if (tsconfigs.has(directory)) {
        found = tsconfigs.get(directory);
        break;
      }
      visited.push(directory);
      const candidate = join(directory, "tsconfig.json");
      if (existsSync(candidate)) {
        found = { path: candidate, hash: hash(readFileSync(candidate, "utf8")) };
        break;
      }
      const parent = dirname(directory);
      if (parent === directory) break;
      directory = parent;
    }
    for (const folder of visited) tsconfigs.set(folder, found);
    return found;
  };
  /** @param {string} entry @returns {string | undefined} the current bundle's path */
  const currentBundle = (entry) => {
    let recorded;
    try {
      recorded = JSON.parse(
        readFileSync(join(cacheDir, "index", `${hash(entry).slice(0, 32)}.json`), "utf8"),
      );
    } catch {
      return undefined;
    }
    const bundle = join(cacheDir, "bundles", `${recorded.key}.mjs`);
    if (recorded.entry !== entry || !existsSync(bundle)) return undefined;
    if (JSON.stringify(nearestTsconfig(entry)) !== JSON.stringify(recorded.tsconfig)) return undefined;
    for (const [path, inputHash] of Object.entries(recorded.inputs)) {
      try {
        if (hash(readFileSync(path)) !== inputHash) return undefined;
      } catch {
        return undefined;
      }
    }
    return recorded.externals.every((/** @type {string} */ path) => existsSync(path)) ? bundle : undefined;
  };
  function* discover() {
    const entries = readdirSync(toolsDir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
      const index = join(toolsDir, entry.name, "index.ts");
      if (existsSync(index)) yield realpathSync(index);
    }
  }
  const modules = discover();
  /** @type {Array<Promise<any>>} */
  const inFlight = [];
  const refill = () => {
    while (inFlight.length < WINDOW) {
      const next = modules.next();
      if (next.done) return;
      const bundle = currentBundle(next.value);
      const imported = bundle
        ? import(pathToFileURL(bundle).href)
        : Promise.reject(new Error(`cache miss: ${next.value}`));
      imported.catch(() => {});
      inFlight.push(imported);
    }
  };
  refill();
  /** @type {unknown[]} */
  const tools = [];
  while (inFlight.length > 0) {
    const module = await inFlight.shift();
    refill();
    const factory = module.default;
    const produced = await factory(pi);
    const list = Array.isArray(produced) ? produced : [produced];
    for (const tool of list) session.register(tool, "prototype");
    tools.push(...list);
    onReady(list);
  }
  return tools;
}
