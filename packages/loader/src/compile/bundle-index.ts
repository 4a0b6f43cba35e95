import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import { findTsconfig, type TsconfigSnapshot } from "./find-tsconfig.js";
import { hash } from "./hash.js";
import { ensureHostModules, hostModuleSource } from "./host-modules.js";

/** The last compile of one entry: enough to prove the cached bundle is still current. */
export interface BundleIndexEntry {
  entry: string;
  key: string;
  /** Hash of the compiler version, the loader's cache format and the build options. */
  context: string;
  tsconfig: TsconfigSnapshot | null;
  /** Absolute path → content hash of every bundled source file. */
  inputs: Record<string, string>;
  /** Host specifier → hash of the virtual module source served for it. */
  hostModules: Record<string, string>;
  /** Absolute paths of external packages the bundle imports. */
  externals: string[];
}

/** Where the bundle of a key lives. */
export function bundlePath(cacheDir: string, key: string): string {
  return join(cacheDir, "bundles", `${key}.mjs`);
}

function indexPath(cacheDir: string, entry: string): string {
  return join(cacheDir, "index", `${hash(entry).slice(0, 32)}.json`);
}

/** The cache key: a hash over everything that can change the bundle. */
export function computeBundleKey(entry: Omit<BundleIndexEntry, "key">): string {
  const inputs = Object.keys(entry.inputs)
    .sort()
    .map((path) => `${path}\0${entry.inputs[path]}`);
  const hostModules = Object.keys(entry.hostModules)
    .sort()
    .map((specifier) => `${specifier}\0${entry.hostModules[specifier]}`);
  return hash(
    [entry.context, entry.entry, JSON.stringify(entry.tsconfig), ...inputs, "\0hosts", ...hostModules].join(
      "\n",
    ),
  ).slice(0, 40);
}

/** Records the last compile of an entry (written atomically; a lost race only costs a rebuild). */
export async function writeBundleIndex(cacheDir: string, entry: BundleIndexEntry): Promise<void> {
  await writeFileAtomic(indexPath(cacheDir, entry.entry), JSON.stringify(entry));
}

/** The last recorded compile of an entry, if any. */
export async function readBundleIndex(
  cacheDir: string,
  entry: string,
): Promise<BundleIndexEntry | undefined> {
  try {
    const recorded = JSON.parse(await readFile(indexPath(cacheDir, entry), "utf8")) as BundleIndexEntry;
    return recorded.entry === entry ? recorded : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cached bundle of an entry when nothing it was built from has changed: same compiler
 * context, same tsconfig, every input file unchanged, same host module exports and every
 * external package still in place. Reads files and hashes; never imports esbuild.
 */
export async function findCurrentBundle(
  cacheDir: string,
  entry: string,
  context: string,
): Promise<BundleIndexEntry | undefined> {
  let recorded: BundleIndexEntry;
  try {
    recorded = JSON.parse(await readFile(indexPath(cacheDir, entry), "utf8")) as BundleIndexEntry;
  } catch {
    return undefined;
  }
  if (recorded.entry !== entry || recorded.context !== context) return undefined;
  if (!existsSync(bundlePath(cacheDir, recorded.key))) return undefined;
  if (JSON.stringify(await findTsconfig(entry, hash)) !== JSON.stringify(recorded.tsconfig)) return undefined;
  for (const [path, inputHash] of Object.entries(recorded.inputs)) {
    try {
      if (hash(await readFile(path)) !== inputHash) return undefined;
    } catch {
      return undefined;
    }
  }
  if (!recorded.externals.every((path) => existsSync(path))) return undefined;
  await ensureHostModules(Object.keys(recorded.hostModules));
  for (const [specifier, sourceHash] of Object.entries(recorded.hostModules)) {
    if (hash(hostModuleSource(specifier)) !== sourceHash) return undefined;
  }
  return recorded;
}
