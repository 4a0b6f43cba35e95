import { pathToFileURL } from "node:url";
import { ensureHostModules, getHostModule, hostModuleSource } from "../host-modules.js";
import { type PreparedModule, preparedModule } from "../prepared-module.js";
import { perFileAvailable, registerHooks } from "./per-file-available.js";
import {
  missingImport,
  type PerFileGraph,
  type PlanMemo,
  planPerFile,
  type Transform,
} from "./per-file-graph.js";

export { planMemo } from "./per-file-graph.js";

/** Module URL → its compiled source, for every file loaded file by file in this process. */
const sources = new Map<string, string>();
/** The URLs of the entries served (imported by the loader itself). */
const entryUrls = new Set<string>();
/** Module URL → (specifier → the URL it imports). */
const links = new Map<string, Map<string, string>>();
/** Entry path → its graph's files' code as served, its URL, and `failed` once its evaluation threw. */
const loadedEntries = new Map<string, { code: Map<string, string>; url: string; failed?: boolean }>();
/**
 * How many graphs this process served, counted across every copy of the loader in it (two
 * installed versions, a test runner that imports the loader afresh): each graph's URLs carry
 * its number, and Node keeps one module per URL for the whole process, so a count per copy
 * would hand the second copy the first one's modules (an edited tool ran its old code).
 */
const SERVED = Symbol.for("tooldock.per-file.served");
const processWide = globalThis as { [SERVED]?: { count: number } };
processWide[SERVED] ??= { count: 0 };
const served = processWide[SERVED];
let hooked = false;

const HOST_SCHEME = "tooldock-host:";

/** Whether this process evaluated `entry` file by file (its next load keeps doing so). */
export function servedPerFile(entry: string): boolean {
  return loadedEntries.has(entry);
}

/**
 * `entry` compiled file by file and evaluated through Node's module system (a cold load's fast
 * path: no bundle to wait for), or `undefined` when it must be bundled (`planPerFile`) or this
 * runtime cannot. Each file is its own module, at its `file:` URL with `?tooldock=<the graph's
 * number>`, so a file two entries import is evaluated once for each, as in packs. An entry
 * loaded again unchanged gets the module it got before, unless its evaluation threw: then its
 * graph is served anew (the user may have fixed what it needed).
 */
export async function preparePerFile(entry: string, memo: PlanMemo): Promise<PreparedModule | undefined> {
  if (!perFileAvailable()) return undefined;
  const transform = await loadOxcTransform();
  if (transform === undefined) return undefined;
  let url: string;
  try {
    const plan = await planPerFile(entry, transform, memo);
    if (!("graph" in plan)) return undefined;
    const { graph } = plan;
    await ensureHostModules([...graph.hostSpecifiers]);
    const hostExports = (specifier: string) => new Set(Object.keys(getHostModule(specifier)));
    if (missingImport(graph, hostExports) !== undefined) return undefined;
    url = serve(graph);
  } catch {
    return undefined; // whatever failed here, the bundle reports it as it does
  }
  return preparedModule(() =>
    import(url).catch((error: unknown) => {
      const loaded = loadedEntries.get(entry);
      if (loaded?.url === url) loaded.failed = true;
      throw error;
    }),
  );
}

/** Registers the graph's modules with the hooks and returns the entry's URL. */
function serve(graph: PerFileGraph): string {
  const loaded = loadedEntries.get(graph.entry);
  if (loaded !== undefined && loaded.failed !== true && sameCode(loaded.code, graph)) return loaded.url;
  installHooks();
  // Every URL carries the graph's number: never one the host (or another graph) imported.
  served.count += 1;
  const query = `?tooldock=${served.count}`;
  const urls = new Map([...graph.files.keys()].map((path) => [path, pathToFileURL(path).href + query]));
  for (const [path, file] of graph.files) {
    const url = urls.get(path) as string;
    const targets = new Map<string, string>();
    for (const [specifier, link] of file.links) {
      if (link.kind === "file") targets.set(specifier, urls.get(link.path) as string);
      else if (link.kind === "host") targets.set(specifier, `${HOST_SCHEME}${specifier}`);
    }
    // The source map inline: Node reads it from the source the hooks serve.
    const map = Buffer.from(JSON.stringify(file.map)).toString("base64");
    sources.set(url, `${file.code}\n//# sourceMappingURL=data:application/json;base64,${map}\n`);
    links.set(url, targets);
  }
  const url = urls.get(graph.entry) as string;
  entryUrls.add(url);
  const code = new Map([...graph.files].map(([path, file]) => [path, file.code]));
  loadedEntries.set(graph.entry, { code, url });
  return url;
}

/** Whether `graph` has the very files and code served before: the same modules. */
function sameCode(before: ReadonlyMap<string, string>, graph: PerFileGraph): boolean {
  if (before.size !== graph.files.size) return false;
  for (const [path, file] of graph.files) if (before.get(path) !== file.code) return false;
  return true;
}

/**
 * Installs the hooks once per process. They answer only for the modules served above (and the
 * host modules those import); every other import goes to Node's own resolution and loading.
 */
function installHooks(): void {
  if (hooked || registerHooks === undefined) return;
  hooked = true;
  registerHooks({
    resolve(specifier, context, next) {
      if (entryUrls.has(specifier)) return { url: specifier, shortCircuit: true };
      const parent = context.parentURL;
      const target = parent === undefined ? undefined : links.get(parent)?.get(specifier);
      return target === undefined ? next(specifier, context) : { url: target, shortCircuit: true };
    },
    load(url, context, next) {
      if (url.startsWith(HOST_SCHEME)) {
        const source = hostModuleSource(url.slice(HOST_SCHEME.length));
        return { format: "module", source, shortCircuit: true };
      }
      // Kept for the life of the process: Node 24+ loads a URL again after its first import
      // failed before evaluation, and a module may import a file of its graph later.
      const source = sources.get(url);
      return source === undefined ? next(url, context) : { format: "module", source, shortCircuit: true };
    },
  });
}

let transformLoading: Promise<Transform | undefined> | undefined;

/** oxc's transform, imported on first use; `undefined` when its binary is not installed. */
export function loadOxcTransform(): Promise<Transform | undefined> {
  transformLoading ??= import("oxc-transform").then(
    (oxc): Transform =>
      async (path, source, settings) => {
        const result = await oxc.transform(path, source, {
          sourcemap: true,
          target: "node20",
          typescript: {
            onlyRemoveTypeImports: settings.onlyRemoveTypeImports,
            removeClassFieldsWithoutInitializer: !settings.defineClassFields,
          },
          assumptions: { setPublicClassFields: !settings.defineClassFields },
        });
        if (result.errors.length > 0 || result.map === undefined) return undefined;
        // The map names the source by URL; no copy of the source (Node keeps each map).
        const { sourcesContent: _content, ...map } = result.map;
        return { code: result.code, map: { ...map, sources: [pathToFileURL(path).href] } };
      },
    () => undefined,
  );
  return transformLoading;
}
