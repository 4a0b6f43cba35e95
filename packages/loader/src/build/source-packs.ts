import { join } from "node:path";
import type { BuildFailure, Metafile, Plugin } from "esbuild";
import { BUILD_OPTIONS, commonDirectory } from "../compile/build-entries.js";
import { type EntryGraph, entryGraphs } from "../compile/entry-graph.js";
import { type BundleRecord, createToolBundlePlugin } from "../compile/esbuild-plugin.js";
import { hash } from "../compile/hash.js";

type Esbuild = typeof import("esbuild");

/** The name of a pack's one export: per member, a function that evaluates it, or `null`. */
export const PACK_EXPORT = "members";

/**
 * Bump when the layout of a pack built from the sources changes, so packs written before are
 * not reused (their members' indexes name them by id).
 */
const SOURCE_PACK_FORMAT_VERSION = 1;

/** One member of a pack built from the sources: what its index records. */
export interface SourcePackMember {
  graph: EntryGraph;
  /** Every source file the build read, hashed as esbuild got it (shared by the build's members). */
  sources: BundleRecord["sources"];
  /** External imports as written → the file they name (shared by the build's members). */
  externals: BundleRecord["externals"];
}

/** The outcome of one requested pack. */
export interface SourcePackOutcome {
  /** The pack's code and map, or `undefined` when no pack was built (fewer than two members fit, or it failed). */
  built: { code: string; map: string } | undefined;
  /** Per entry, in order: its member record, or `undefined` for an entry to build on its own. */
  members: Array<SourcePackMember | undefined>;
}

/**
 * The id of a pack (its file is `pack-<id>.mjs`): a hash of its members' keys in order, an
 * empty slot for an entry left out.
 */
export function sourcePackId(keys: ReadonlyArray<string | undefined>): string {
  return hash(
    [`source-pack ${SOURCE_PACK_FORMAT_VERSION}`, ...keys.map((key) => key ?? "-")].join("\n"),
  ).slice(0, 40);
}

const PACK_NAMESPACE = "tooldock-source-pack";

/**
 * Builds packs straight from the tools' sources, in one `esbuild.build` with one entry point
 * per pack: a virtual module `export const members = [() => import("<entry>"), …]` bundled
 * with the tool plugin, so each member's modules sit in esbuild's lazy init wrappers and run
 * only when its function is called, Node built-ins stay real imports, and the pack's one
 * source map points at the `.ts` files. The metafile's import graph gives each member its own
 * inputs, so each member gets its own cache index (see `writeSourcePack`) without a bundle
 * of its own.
 *
 * An entry is left out of its pack (its slot `null`; the caller builds it on its own, as
 * every entry was built before packs) when one of its files statically imports a package (the
 * package's top-level code would run when the pack is imported, outside the member's guards),
 * still reads `import.meta` or `require` (it would read the pack's), or shares a file or a
 * reporting host module with an earlier member (each member must evaluate its own modules, as
 * its own bundle does). A pack that loses members is built again without them. A build that
 * fails (a syntax error, a missing import in one member) is retried pack by pack; a pack that
 * still fails is given up (`built: undefined`, every entry on its own), so the caller's
 * per-entry build pins each error to its own module and the others still load.
 */
export async function buildSourcePacks(
  esbuild: Esbuild,
  packs: ReadonlyArray<readonly string[]>,
  outdir: string,
): Promise<SourcePackOutcome[]> {
  const outcomes: SourcePackOutcome[] = packs.map((entries) => ({
    built: undefined,
    members: entries.map(() => undefined),
  }));
  const slots = packs.map((entries) => entries.map(() => true));
  await attempt(
    esbuild,
    packs.map((_, index) => index),
    { packs, slots, outcomes, outdir },
    true,
  );
  return outcomes;
}

interface Work {
  packs: ReadonlyArray<readonly string[]>;
  /** Per pack, per entry: still in the pack. */
  slots: boolean[][];
  outcomes: SourcePackOutcome[];
  outdir: string;
}

async function attempt(esbuild: Esbuild, which: number[], work: Work, split: boolean): Promise<void> {
  const building = which.filter((index) => countTrue(work.slots[index] as boolean[]) >= 2);
  if (building.length === 0) return;
  const entries = building.flatMap((index) =>
    (work.packs[index] as readonly string[]).filter((_, at) => work.slots[index]?.[at]),
  );
  const workingDir = commonDirectory(entries);
  const record: BundleRecord = { externals: new Map(), sources: new Map(), unpackable: new Set() };
  let result: { outputFiles: Array<{ path: string; text: string }>; metafile: Metafile };
  try {
    result = await esbuild.build({
      ...withoutRequireBanner(),
      entryPoints: building.map((index) => ({ in: `${PACK_NAMESPACE}:${index}`, out: `pack-${index}` })),
      absWorkingDir: workingDir,
      outdir: work.outdir,
      outExtension: { ".js": ".mjs" },
      plugins: [packEntries(work, workingDir), createToolBundlePlugin(record)],
    });
  } catch (error) {
    if (!isBuildFailure(error)) throw error;
    // One pack that does not build must not cost the others theirs: each on its own.
    if (split && building.length > 1) {
      for (const index of building) await attempt(esbuild, [index], work, false);
    }
    return; // given up: its entries are built one by one
  }
  const files = new Map(result.outputFiles.map((file) => [file.path, file.text]));
  const again: number[] = [];
  for (const index of building) {
    const packEntries = work.packs[index] as readonly string[];
    const slots = work.slots[index] as boolean[];
    const graphs = entryGraphs(
      result.metafile,
      workingDir,
      packEntries.filter((_, at) => slots[at]),
    );
    const owned = new Set<string>();
    let lost = false;
    for (const [at, entry] of packEntries.entries()) {
      if (!slots[at]) continue;
      const graph = graphs.get(entry) as EntryGraph;
      const own = [...graph.files, ...graph.hostModules.filter(isReportingHostModule)];
      const fits =
        graph.files.length > 0 &&
        !graph.files.some((file) => record.unpackable?.has(file)) &&
        !own.some((file) => owned.has(file));
      if (!fits) {
        slots[at] = false;
        lost = true;
        continue;
      }
      for (const file of own) owned.add(file);
      (work.outcomes[index] as SourcePackOutcome).members[at] = {
        graph,
        sources: record.sources,
        externals: record.externals,
      };
    }
    if (lost) {
      // Built again without the members that cannot share it.
      (work.outcomes[index] as SourcePackOutcome).members = packEntries.map(() => undefined);
      again.push(index);
      continue;
    }
    const code = join(work.outdir, `pack-${index}.mjs`);
    (work.outcomes[index] as SourcePackOutcome).built = {
      code: files.get(code) ?? "",
      map: files.get(`${code}.map`) ?? "",
    };
  }
  if (again.length > 0) await attempt(esbuild, again, work, split);
}

/** The virtual entry of each pack: its members' lazy imports, `null` for an entry left out. */
function packEntries(work: Work, resolveDir: string): Plugin {
  return {
    name: "tooldock-source-pack",
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${PACK_NAMESPACE}:`) }, (args) => ({
        path: args.path.slice(PACK_NAMESPACE.length + 1),
        namespace: PACK_NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: PACK_NAMESPACE }, (args) => {
        const index = Number(args.path);
        const members = (work.packs[index] ?? []).map((entry, at) =>
          work.slots[index]?.[at] ? `  () => import(${JSON.stringify(entry)}),` : "  null,",
        );
        return {
          contents: `export const ${PACK_EXPORT} = [\n${members.join("\n")}\n];\n`,
          resolveDir,
          loader: "js",
        };
      });
    },
  };
}

/**
 * The tool bundles' options without their `require` banner and its `define`: a pack has no
 * single entry to resolve `require` from, so members that use it are built on their own.
 */
function withoutRequireBanner() {
  const { banner: _banner, define: _define, ...options } = BUILD_OPTIONS;
  return options;
}

/** A host module that reports the names it lacks when evaluated: one per member, never shared. */
function isReportingHostModule(specifier: string): boolean {
  return specifier.includes("?");
}

function countTrue(values: readonly boolean[]): number {
  let count = 0;
  for (const value of values) if (value) count += 1;
  return count;
}

function isBuildFailure(error: unknown): boolean {
  return Array.isArray((error as Partial<BuildFailure> | null)?.errors);
}
