import { readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join } from "node:path";
import type { Plugin } from "esbuild";
import { writeFileAtomicSync } from "../compile/atomic-write.js";
import { bundlePath, packPath } from "../compile/bundle-index.js";
import { hash } from "../compile/hash.js";
import { mapPath } from "../compile/write-bundle.js";
import { replaceSlot, sweepOldPacks } from "./pack-index.js";

type Esbuild = typeof import("esbuild");

/**
 * Bump when the pack layout changes, so packs written before are not reused.
 * 3: written by esbuild (a `members` array of lazy imports) instead of by hand.
 */
export const PACK_FORMAT_VERSION = 3;

/** The name of a pack's one export: per member, a function that evaluates it, or `null`. */
export const PACK_EXPORT = "members";

/** One cached bundle a pack may hold. */
export interface PackMember {
  entry: string;
  /** The key of the entry's current bundle (see `computeBundleKey`). */
  key: string;
}

/** The pack of these bundles, in this order: a hash of their keys. */
export function packId(members: readonly PackMember[]): string {
  return hash([`pack ${PACK_FORMAT_VERSION}`, ...members.map((member) => member.key)].join("\n")).slice(
    0,
    40,
  );
}

/** `import.meta` left in a bundle (only `import.meta.resolve` survives the build's rewrite). */
const IMPORT_META = /\bimport\s*\.\s*meta\b/;

/** One pack to write: its id and its members, in order. */
interface PackRequest {
  id: string;
  members: readonly PackMember[];
  /** The members' bundle paths. */
  paths: string[];
  /** Per member: still in the pack (false: imported on its own). */
  packed: boolean[];
}

interface Waiting {
  request: PackRequest;
  resolve: (packed: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Writes the packs of one load batch with esbuild: every pack asked for in the same turn of
 * the event loop is built in one `esbuild.build` (one entry point per pack), the way the
 * bundles of a batch are. See {@link PackWriter.write}.
 */
export class PackWriter {
  readonly #cacheDir: string;
  readonly #esbuild: () => Promise<Esbuild>;
  #waiting: Waiting[] = [];

  constructor(cacheDir: string, esbuild: () => Promise<Esbuild>) {
    this.#cacheDir = cacheDir;
    this.#esbuild = esbuild;
  }

  /**
   * Writes the pack of `members`: a virtual entry `export const members = [() =>
   * import(bundle1), …]`, bundled by esbuild (`bundle: true`), so each member's top-level code
   * sits in esbuild's lazy init wrapper and runs only when its function is called, once; Node
   * built-ins stay real imports, and esbuild merges the members' linked source maps into the
   * pack's one map (`<cacheDir>/maps/pack-<id>.mjs.map`), so stack traces still name the `.ts`
   * lines. A member is left out (`null`, imported on its own) when its bundle reads
   * `import.meta` (it would read the pack's) or statically imports anything but a Node
   * built-in (a package's top-level code would run when the pack is imported, outside the
   * member's guards). Written atomically (map first); replaces the previous pack of the same
   * entries and removes packs not written for 30 days. Resolves to how many members the pack
   * holds (0: nothing written, each member is imported on its own). Rejects when the cache
   * cannot be read or written, or esbuild fails.
   */
  write(id: string, members: readonly PackMember[]): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      let request: PackRequest;
      try {
        const paths = members.map((member) => bundlePath(this.#cacheDir, member.key));
        const packed = paths.map((path) => !IMPORT_META.test(readFileSync(path, "utf8")));
        request = { id, members, paths, packed };
      } catch (error) {
        reject(error);
        return;
      }
      this.#waiting.push({ request, resolve, reject });
      if (this.#waiting.length === 1) setImmediate(() => void this.#flush());
    });
  }

  async #flush(): Promise<void> {
    const group = this.#waiting.splice(0);
    let esbuild: Esbuild;
    try {
      esbuild = await this.#esbuild();
    } catch (error) {
      for (const waiting of group) waiting.reject(error);
      return;
    }
    await this.#build(esbuild, group, true);
  }

  async #build(esbuild: Esbuild, group: Waiting[], split: boolean): Promise<void> {
    const building = group.filter(({ request, resolve }) => {
      if (request.packed.filter(Boolean).length >= 2) return true;
      resolve(0);
      return false;
    });
    if (building.length === 0) return;
    let built: Map<string, BuiltPack>;
    try {
      built = await buildPacks(
        esbuild,
        this.#cacheDir,
        building.map(({ request }) => request),
      );
    } catch (error) {
      // One pack esbuild cannot build must not cost the others theirs: each on its own.
      if (split && building.length > 1) {
        for (const one of building) await this.#build(esbuild, [one], false);
      } else {
        for (const waiting of building) waiting.reject(error);
      }
      return;
    }
    const again: Waiting[] = [];
    for (const waiting of building) {
      const { request } = waiting;
      const pack = built.get(request.id) as BuiltPack;
      const importers = request.paths.filter((path) => pack.staticImporters.has(path));
      if (importers.length > 0) {
        // Members that import a package: built again without them (their bundles alone).
        request.packed = request.packed.map(
          (packed, index) => packed && !importers.includes(request.paths[index] as string),
        );
        if (split) again.push(waiting);
        else waiting.resolve(0);
        continue;
      }
      try {
        writeFileAtomicSync(mapPath(this.#cacheDir, `pack-${request.id}`), pack.map);
        writeFileAtomicSync(
          packPath(this.#cacheDir, request.id),
          `${pack.code}//# sourceMappingURL=../maps/pack-${request.id}.mjs.map\n`,
        );
        replaceSlot(this.#cacheDir, request.members, request.id);
        waiting.resolve(request.packed.filter(Boolean).length);
      } catch (error) {
        waiting.reject(error);
      }
    }
    if (again.length > 0) await this.#build(esbuild, again, false);
    sweepOldPacks(this.#cacheDir);
  }
}

interface BuiltPack {
  code: string;
  map: string;
  /** Member bundles with a static import of something other than a Node built-in. */
  staticImporters: Set<string>;
}

const PACK_NAMESPACE = "tooldock-pack";

/** Builds the packs of `requests` in one esbuild build; throws what esbuild throws. */
async function buildPacks(
  esbuild: Esbuild,
  cacheDir: string,
  requests: readonly PackRequest[],
): Promise<Map<string, BuiltPack>> {
  const bundles = join(cacheDir, "bundles");
  const entries = new Map<string, string>();
  for (const { id, paths, packed } of requests) {
    const members = paths.map((path, index) =>
      packed[index] ? `  () => import(${JSON.stringify(path)}),` : "  null,",
    );
    entries.set(id, `export const ${PACK_EXPORT} = [\n${members.join("\n")}\n];\n`);
  }
  const staticImporters = new Set<string>();
  const plugin: Plugin = {
    name: "tooldock-pack",
    setup(build) {
      build.onResolve({ filter: /^tooldock-pack:/ }, (args) => ({
        path: args.path.slice(PACK_NAMESPACE.length + 1),
        namespace: PACK_NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: PACK_NAMESPACE }, (args) => ({
        contents: entries.get(args.path) ?? "",
        resolveDir: bundles,
        loader: "js",
      }));
      build.onResolve({ filter: /.*/ }, (args) => {
        // The entry's imports are the member bundles: esbuild reads them (and their maps).
        if (args.namespace === PACK_NAMESPACE || args.kind === "entry-point") return undefined;
        if (!isBuiltin(args.path) && args.kind === "import-statement") staticImporters.add(args.importer);
        // Whatever a bundle imports stays as it is written (built-ins, packages, `import()`s).
        return { path: args.path, external: true };
      });
    },
  };
  const result = await esbuild.build({
    entryPoints: requests.map(({ id }) => ({ in: `${PACK_NAMESPACE}:${id}`, out: `pack-${id}` })),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outdir: bundles,
    // Paths in the pack's comments are relative to this folder (`// <key>.mjs`), not the host's cwd.
    absWorkingDir: bundles,
    outExtension: { ".js": ".mjs" },
    sourcemap: "external",
    sourcesContent: false,
    write: false,
    logLevel: "silent",
    charset: "ascii", // as the bundles (BUILD_OPTIONS): a pack's source stays one byte a character
    plugins: [plugin],
  });
  const files = new Map(result.outputFiles.map((file) => [file.path, file.text]));
  const packs = new Map<string, BuiltPack>();
  for (const { id, paths } of requests) {
    const code = join(bundles, `pack-${id}.mjs`);
    packs.set(id, {
      code: files.get(code) ?? "",
      map: files.get(`${code}.map`) ?? "",
      staticImporters: new Set(paths.filter((path) => staticImporters.has(path))),
    });
  }
  return packs;
}
