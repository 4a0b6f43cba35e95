// Packs every public package of the workspace into `artifacts/` (git-ignored), the tarballs a
// release would publish, with `workspace:` ranges rewritten to the real versions so that
// `npm install ./artifacts/*.tgz` works outside the repo. Needs no pnpm: each package is staged
// in a temporary folder (its files, and a package.json with the ranges rewritten) and packed
// with `npm pack`, which applies the package's "files" list.
//
//   node scripts/release-pack.mjs [--out DIR]      (root script: `pnpm release:pack`)
//
// Build first (`npx -y pnpm@10.34.8 build`): the tarballs hold each package's `dist/`.
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const DEPENDENCY_FIELDS = ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"];

/**
 * @typedef {{ name: string, version: string, private?: boolean, main?: string } & Record<string, any>} Manifest
 * @typedef {{ name: string, version: string, directory: string, manifest: Manifest }} WorkspacePackage
 */

/** @returns {Promise<WorkspacePackage[]>} every package under packages/, public or not */
export async function workspacePackages() {
  const packagesDir = join(repoRoot, "packages");
  const found = [];
  for (const folder of (await readdir(packagesDir)).sort()) {
    const directory = join(packagesDir, folder);
    let manifest;
    try {
      manifest = JSON.parse(await readFile(join(directory, "package.json"), "utf8"));
    } catch {
      continue;
    }
    found.push({ name: manifest.name, version: manifest.version, directory, manifest });
  }
  return found;
}

/**
 * The range a published manifest gets for `workspace:<spec>` on a package at `version`: `*`
 * becomes the exact version, `^` and `~` the caret and tilde ranges, anything else is kept.
 *
 * @param {string} spec the part after `workspace:`
 * @param {string} version
 */
export function publishedRange(spec, version) {
  if (spec === "*" || spec === "") return version;
  if (spec === "^" || spec === "~") return `${spec}${version}`;
  return spec;
}

/**
 * A copy of `manifest` whose `workspace:` ranges name real versions.
 *
 * @param {Manifest} manifest
 * @param {Map<string, string>} versions workspace package name → version
 */
export function rewriteWorkspaceRanges(manifest, versions) {
  const copy = structuredClone(manifest);
  for (const field of DEPENDENCY_FIELDS) {
    const dependencies = copy[field];
    if (dependencies === undefined) continue;
    for (const [name, range] of Object.entries(dependencies)) {
      if (typeof range !== "string" || !range.startsWith("workspace:")) continue;
      const version = versions.get(name);
      if (version === undefined) {
        throw new Error(
          `${manifest.name}: ${field}.${name} is "${range}", but no workspace package is named ${name}.`,
        );
      }
      dependencies[name] = publishedRange(range.slice("workspace:".length), version);
    }
  }
  return copy;
}

/**
 * Packs the public packages into `outDir` (emptied of old tarballs first).
 *
 * @param {string} outDir
 * @returns {Promise<Array<{ name: string, version: string, tarball: string }>>}
 */
export async function releasePack(outDir) {
  const packages = await workspacePackages();
  const versions = new Map(packages.map((pkg) => [pkg.name, pkg.version]));
  const publicPackages = packages.filter((pkg) => pkg.manifest.private !== true);
  for (const pkg of publicPackages) {
    const entry = join(pkg.directory, pkg.manifest.main ?? "dist/index.js");
    try {
      await readFile(entry);
    } catch {
      throw new Error(
        `${relative(repoRoot, entry)} is missing: build first (\`npx -y pnpm@10.34.8 build\`), then run release:pack again.`,
      );
    }
  }
  await mkdir(outDir, { recursive: true });
  for (const name of await readdir(outDir)) if (name.endsWith(".tgz")) await rm(join(outDir, name));
  const staging = await mkdtemp(join(tmpdir(), "tooldock-release-pack-"));
  try {
    const folders = await Promise.all(
      publicPackages.map(async (pkg) => {
        const folder = pkg.name.replace(/[@/]/g, "_");
        const stage = join(staging, folder);
        await cp(pkg.directory, stage, {
          recursive: true,
          filter: (source) => !relative(pkg.directory, source).split(/[\\/]/).includes("node_modules"),
        });
        const manifest = rewriteWorkspaceRanges(pkg.manifest, versions);
        await writeFile(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
        return `./${folder}`;
      }),
    );
    // One npm for every folder: each npm started costs a second or two of CPU, the packing little.
    const output = execFileSync(
      "npm",
      ["pack", "--json", "--ignore-scripts", "--pack-destination", outDir, ...folders],
      {
        cwd: staging,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        shell: process.platform === "win32",
      },
    );
    const filenames = new Map(JSON.parse(output).map((result) => [result.name, result.filename]));
    return publicPackages.map((pkg) => ({
      name: pkg.name,
      version: pkg.version,
      tarball: join(outDir, filenames.get(pkg.name)),
    }));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const outIndex = process.argv.indexOf("--out");
  const outDir = resolve(outIndex > 0 ? process.argv[outIndex + 1] : join(repoRoot, "artifacts"));
  const packed = await releasePack(outDir);
  for (const { tarball } of packed) process.stdout.write(`${relative(process.cwd(), tarball)}\n`);
}
