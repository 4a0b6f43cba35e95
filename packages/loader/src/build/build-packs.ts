import { join } from "node:path";
import type { Metafile, Plugin } from "esbuild";
import { writeFileAtomicSync } from "../compile/atomic-write.js";
import {
  BUILD_OPTIONS,
  commonDirectory,
  ENTRY_PLACEHOLDER,
  isBuildFailure,
  toCompileFailure,
} from "../compile/build-options.js";
import { type MemberRecord, memberKey, packMapPath, packPath } from "../compile/cache-index.js";
import { CacheWriteError } from "../compile/cache-write-error.js";
import { CompileFailure } from "../compile/compile-failure.js";
import { type EntryGraph, entryGraphs } from "../compile/entry-graph.js";
import type { Esbuild } from "../compile/esbuild-batch.js";
import { type BundleRecord, createToolBundlePlugin } from "../compile/esbuild-plugin.js";
import type { TsconfigSnapshot } from "../compile/find-tsconfig.js";
import { hash } from "../compile/hash.js";
import { hostModuleSourceHash } from "../compile/host-modules.js";
import { readInput } from "../compile/read-input.js";
import { packScriptPath, packStubPath, packStubText } from "./pack-script.js";

/** The name of a pack's export that holds, per member, a function that evaluates it (to a promise). */
export const PACK_EXPORT = "members";

/**
 * A shared pack's second export: per member, esbuild's `require` of it, which returns its
 * exports at once (no promise, no turn of the event loop). Valid only for a member whose
 * modules have no top-level `await` (its record says `sync`): else its exports are not set yet.
 */
export const SYNC_EXPORT = "__tooldockSync";

/** What one group became: per entry, its record (its code is in a pack now) or why it did not build. */
export type GroupOutcome = Map<string, MemberRecord | CompileFailure>;

/** What the build needs to know besides the sources. */
export interface PackContext {
  cacheDir: string;
  /** The compiler context hash (see `esbuildContextHash`), part of every key. */
  context: string;
  tsconfigOf: (entry: string) => TsconfigSnapshot | null;
  /** Folders every input must lie in (a tool host's read roots); default: anywhere. */
  readRoots?: readonly string[] | undefined;
}

/** What the builds of one {@link buildPacks} share, and the packs built so far. */
interface Run {
  esbuild: Esbuild;
  outdir: string;
  readRoots: readonly string[] | undefined;
  built: BuiltPack[];
}

/** An entry of the group at `group` in the list of groups being built. */
interface Member {
  entry: string;
  group: number;
}

/** A pack built but not written yet. */
interface BuiltPack {
  members: Member[];
  /** Per member, whether its {@link SYNC_EXPORT} function may be used. */
  sync: boolean[];
  code: string;
  map: string;
  graphs: Map<string, EntryGraph>;
  record: BundleRecord;
}

/**
 * Builds each group of entries (in load order) into packs, the cache's one kind of unit, and
 * writes them: `<cacheDir>/bundles/pack-<id>.mjs` exports `members`, one function per member
 * (its modules sit in esbuild's lazy init wrappers: importing a pack runs no tool code), with
 * its map in `<cacheDir>/maps/`. Resolves to each group's outcome; the caller writes the index.
 *
 * A group shares one pack, all groups in one `esbuild.build`. An entry gets a pack of its own
 * (with the `require` banner) when its group has one entry, or when a file of it statically
 * imports a package (whose top-level code would run on the pack's import, outside the member's
 * guards), still reads `import.meta` or `require` (it would read the pack's), or shares a file
 * or a reporting host module with an earlier member (each member evaluates its own modules). A
 * group that fails to build is built entry by entry, and a failing build of single entries is
 * split in halves until each error is pinned to its entry. Throws `CacheWriteError` when the
 * cache cannot be written, and what esbuild throws when it fails as a whole.
 */
export async function buildPacks(
  esbuild: Esbuild,
  groups: ReadonlyArray<readonly string[]>,
  pack: PackContext,
): Promise<GroupOutcome[]> {
  const outcomes: GroupOutcome[] = groups.map(() => new Map());
  const alone: Member[] = []; // groups of one go here too (see buildShared)
  const shared = groups.map((entries, group) => entries.map((entry) => ({ entry, group })));
  const { packScriptText } = await import("./pack-script-text.js");
  // Built as if into `bundles/`: the map's paths are relative to that folder, which is as deep
  // as `maps/`, where the map is written.
  const run: Run = { esbuild, outdir: join(pack.cacheDir, "bundles"), readRoots: pack.readRoots, built: [] };
  await buildShared(run, shared, alone);
  await buildAlone(run, alone, outcomes);
  try {
    for (const one of run.built) {
      const records = writePack(one, pack, packScriptText);
      for (const [at, member] of one.members.entries())
        outcomes[member.group]?.set(member.entry, records[at] as MemberRecord);
    }
  } catch (error) {
    throw new CacheWriteError(pack.cacheDir, { cause: error });
  }
  return outcomes;
}

const SHARED_NAMESPACE = "tooldock-pack" as const;
const ALONE_NAMESPACE = "tooldock-pack-alone" as const;

/**
 * Builds each group as one pack (all in one esbuild build). Members that cannot share their
 * pack go to `alone`, and their group is built again without them; a group that fails to
 * build, or keeps fewer than two members, goes to `alone` whole.
 */
async function buildShared(run: Run, groups: Member[][], alone: Member[], split = true): Promise<void> {
  const building = groups.filter((members) => {
    if (members.length >= 2) return true;
    alone.push(...members);
    return false;
  });
  if (building.length === 0) return;
  const packs = building.map((members) => members.map((member) => member.entry));
  const workingDir = commonDirectory(packs.flat());
  const record: BundleRecord = { externals: new Map(), sources: new Map(), unpackable: new Set() };
  const output = await buildEntries(run, SHARED_NAMESPACE, packs, workingDir, record).catch((error) => {
    if (isBuildFailure(error)) return undefined;
    throw error;
  });
  if (output === undefined) {
    // One group that does not build must not cost the others theirs: each on its own, then
    // its entries one by one.
    if (!split || building.length === 1) alone.push(...building.flat());
    else for (const members of building) await buildShared(run, [members], alone, false);
    return;
  }
  const again: Member[][] = [];
  for (const [at, members] of building.entries()) {
    const graphs = entryGraphs(output.metafile, workingDir, packs[at] as string[]);
    const owned = new Set<string>();
    const kept: Member[] = [];
    for (const member of members) {
      const graph = graphs.get(member.entry) as EntryGraph;
      // A host module that reports the names it lacks (`…?missing=`): one per member, never shared.
      const own = [...graph.files, ...graph.hostModules.filter((specifier) => specifier.includes("?"))];
      const fits =
        graph.files.length > 0 &&
        !graph.files.some((file) => record.unpackable?.has(file)) &&
        !own.some((file) => owned.has(file));
      if (!fits) {
        alone.push(member);
        continue;
      }
      for (const file of own) owned.add(file);
      kept.push(member);
    }
    if (kept.length < members.length) {
      again.push(kept); // built again without the members that cannot share it
      continue;
    }
    const { code = "", map } = output.packs[at] ?? { map: "" };
    run.built.push({ members, sync: syncMembers(code, members.length), code, map, graphs, record });
  }
  if (again.length > 0) await buildShared(run, again, alone, split);
}

/**
 * Builds each entry into a pack of its own (one esbuild build for all), with the `require`
 * banner. A build that fails is split in halves until each failure is pinned to its entry.
 */
async function buildAlone(run: Run, members: readonly Member[], outcomes: GroupOutcome[]): Promise<void> {
  if (members.length === 0) return;
  const entries = members.map((member) => member.entry);
  const workingDir = commonDirectory(entries);
  const record: BundleRecord = { externals: new Map(), sources: new Map() };
  let output: Awaited<ReturnType<typeof buildEntries>>;
  try {
    const packs = entries.map((entry) => [entry]);
    output = await buildEntries(run, ALONE_NAMESPACE, packs, workingDir, record);
  } catch (error) {
    if (members.length > 1 && isBuildFailure(error)) {
      const half = Math.ceil(members.length / 2);
      await buildAlone(run, members.slice(0, half), outcomes);
      await buildAlone(run, members.slice(half), outcomes);
      return;
    }
    for (const member of members)
      outcomes[member.group]?.set(member.entry, toCompileFailure(error, workingDir));
    return;
  }
  const graphs = entryGraphs(output.metafile, workingDir, entries);
  for (const [at, member] of members.entries()) {
    const { entry } = member;
    const { code, map } = output.packs[at] ?? { map: "" };
    if (code === undefined) {
      outcomes[member.group]?.set(entry, new CompileFailure(`esbuild returned no output for ${entry}`, {}));
      continue;
    }
    const text = code.replace(JSON.stringify(ENTRY_PLACEHOLDER), () => JSON.stringify(entry));
    run.built.push({ members: [member], sync: [false], code: text, map, graphs, record });
  }
}

/**
 * One esbuild build of `packs` (`pack-<n>` for the n-th), a shared one without the `require`
 * banner: per pack, its code (if any) and map, and the metafile (nothing is on disk).
 */
async function buildEntries(
  run: Run,
  namespace: typeof SHARED_NAMESPACE | typeof ALONE_NAMESPACE,
  packs: ReadonlyArray<readonly string[]>,
  workingDir: string,
  record: BundleRecord,
): Promise<{ packs: Array<{ code: string | undefined; map: string }>; metafile: Metafile }> {
  const { banner, define, ...options } = BUILD_OPTIONS;
  const result = await run.esbuild.build({
    ...options,
    ...(namespace === ALONE_NAMESPACE ? { define, banner } : {}),
    entryPoints: packs.map((_, at) => ({ in: `${namespace}:${at}`, out: `pack-${at}` })),
    absWorkingDir: workingDir,
    outdir: run.outdir,
    outExtension: { ".js": ".mjs" },
    plugins: [packEntries(namespace, packs, workingDir), createToolBundlePlugin(record, run.readRoots)],
  });
  const files = new Map(result.outputFiles.map((file) => [file.path, file.text]));
  const packOutput = (_: unknown, at: number) => {
    const path = join(run.outdir, `pack-${at}.mjs`);
    return { code: files.get(path), map: files.get(`${path}.map`) ?? "" };
  };
  return { packs: packs.map(packOutput), metafile: result.metafile };
}

/**
 * The virtual entry of each pack: `export const members = [() => import("<entry>"), …]`, and
 * for a shared pack also `export const __tooldockSync = [() => require("<entry>"), …]`.
 */
function packEntries(namespace: string, packs: ReadonlyArray<readonly string[]>, resolveDir: string): Plugin {
  return {
    name: namespace,
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${namespace}:`) }, (args) => ({
        path: args.path.slice(namespace.length + 1),
        namespace,
      }));
      build.onLoad({ filter: /.*/, namespace }, (args) => {
        const entries = packs[Number(args.path)] ?? [];
        const members = entries.map((entry) => `  () => import(${JSON.stringify(entry)}),`);
        let contents = `export const ${PACK_EXPORT} = [\n${members.join("\n")}\n];\n`;
        if (namespace === SHARED_NAMESPACE) {
          const now = entries.map((entry) => `  () => require(${JSON.stringify(entry)}),`);
          contents += `export const ${SYNC_EXPORT} = [\n${now.join("\n")}\n];\n`;
        }
        return { contents, resolveDir, loader: "js" };
      });
    },
  };
}

/**
 * Writes a built pack (its map first, then the pack linked to it, each atomically) and returns
 * its members' records. Its id hashes its members' keys: the same code is the same file.
 */
function writePack(
  built: BuiltPack,
  pack: PackContext,
  packScriptText: (packText: string) => string | undefined,
): MemberRecord[] {
  const records = built.members.map(({ entry }, index): MemberRecord => {
    const graph = built.graphs.get(entry) as EntryGraph;
    const inputs: Record<string, string> = {};
    const stats: Record<string, string> = {};
    for (const path of graph.files) {
      const input = built.record.sources.get(path) ?? readInput(path).record;
      inputs[path] = input.hash;
      if (input.fingerprint !== undefined) stats[path] = input.fingerprint;
    }
    const required = graph.files.flatMap((path) => built.record.requiredHosts?.get(path) ?? []);
    const hostModules = Object.fromEntries(
      [...graph.hostModules, ...required].map((specifier) => [specifier, hostModuleSourceHash(specifier)]),
    );
    const externals = new Set(
      graph.externals.flatMap((written) => built.record.externals.get(written) ?? []),
    );
    const tsconfig = pack.tsconfigOf(entry);
    const key = memberKey(pack.context, { entry, tsconfig, inputs, hostModules });
    return {
      entry,
      key,
      pack: "",
      index,
      packBytes: 0,
      ...(built.sync[index] === true ? { sync: true } : {}),
      tsconfig,
      inputs,
      stats,
      hostModules,
      externals: [...externals].sort(),
    };
  });
  const kind = built.members.length === 1 ? "alone" : "shared";
  const id = hash([`pack ${kind}`, ...records.map((record) => record.key)].join("\n")).slice(0, 40);
  const path = packPath(pack.cacheDir, id);
  // The `.cjs` stub is the pack's map comment alone.
  const mapComment = packStubText(id);
  const text = built.code + mapComment;
  writeFileAtomicSync(packMapPath(pack.cacheDir, id), built.map);
  // What a warm load runs instead of importing the pack where it can, and the file it
  // compiles that script as, for Node to read the same map (see `pack-script.ts`). Neither
  // is flushed: a script cut short by a crash lacks its closing line and does not compile
  // (the pack is imported instead), a `.cjs` cut short only names no map.
  writeFileAtomicSync(packStubPath(path), mapComment, { flush: false });
  const script = packScriptText(text);
  if (script !== undefined) writeFileAtomicSync(packScriptPath(path), script, { flush: false });
  writeFileAtomicSync(path, text);
  const packBytes = Buffer.byteLength(text, "utf8");
  for (const record of records) {
    record.pack = id;
    record.packBytes = packBytes;
  }
  return records;
}

/**
 * Per member of a shared pack, whether its {@link SYNC_EXPORT} function evaluates it whole.
 * Read from esbuild's own decision, in the pack's virtual entry (the last module of the output,
 * nothing after it but the exports: legal comments stay inline): it writes a member's
 * `import()` as `Promise.resolve().then(() => (init_x(), x_exports))` when the member's init
 * is synchronous, and as `init_x().then(…)` when it is `async` (the member, or a module it
 * imports, waits at the top level). A member is sync when its `import()` has the first form
 * and its {@link SYNC_EXPORT} function is `() => (init_x(), __toCommonJS(…))` with the same
 * init. Anything else is not sync, and the member is evaluated through its `import()`.
 */
export function syncMembers(code: string, count: number): boolean[] {
  const later = arrayElements(code, PACK_EXPORT);
  const now = arrayElements(code, SYNC_EXPORT);
  if (later?.length !== count || now?.length !== count) return new Array(count).fill(false);
  return later.map((element, index) => {
    const init = /^\(\) => Promise\.resolve\(\)\.then\(\(\) => \(init_([\w$]+)\(\), [\w$]+\)\)$/.exec(
      element,
    )?.[1];
    const same = /^\(\) => \(init_([\w$]+)\(\), __toCommonJS\([\w$]+\)\)$/.exec(now[index] as string)?.[1];
    return init !== undefined && init === same;
  });
}

/** The elements of the last `var <name> = [ … ];` in `code`, trimmed; `undefined` when there is none. */
function arrayElements(code: string, name: string): string[] | undefined {
  const head = `var ${name} = [`;
  const start = code.lastIndexOf(head);
  if (start === -1) return undefined;
  const end = code.indexOf("];", start);
  if (end === -1) return undefined;
  const list = code.slice(start + head.length, end).trim();
  return list === "" ? [] : list.split(/,(?=\s*\(\) =>)/).map((element) => element.trim());
}
