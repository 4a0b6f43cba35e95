// Checks of scripts/bundle.mjs: the built input is there, and the bundle holds one copy of the
// packages tools share with the host and nothing that fails only at run time.
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

/** The packages a tool and the host must share: one copy each, or the build fails. */
const SINGLE_COPY = ["@sinclair/typebox", "zod", "@tooldock/sdk", "@tooldock/runtime", "@tooldock/loader"];

/**
 * Fails with what to run when tsc has not built `entry` (a path in the CLI package).
 *
 * @param {string} packageDir
 * @param {string} entry
 */
export async function assertBuilt(packageDir, entry) {
  try {
    await readFile(join(packageDir, entry));
  } catch {
    throw new Error(
      `packages/cli/${entry} is missing: run \`npx tsc -b tsconfig.build.json\` (or \`pnpm build\`) first.`,
    );
  }
}

/**
 * Maps each bundled file to the package it belongs to (the nearest package.json with a name)
 * and fails when one package comes from two folders, e.g. two versions of zod.
 *
 * @param {string} packageDir
 * @param {import("esbuild").Metafile} metafile
 */
export async function assertSingleCopies(packageDir, metafile) {
  /** @type {Map<string, { name: string, root: string } | undefined>} */
  const owners = new Map();
  /** @param {string} directory */
  const ownerOf = async (directory) => {
    if (owners.has(directory)) return owners.get(directory);
    let found;
    try {
      const manifest = JSON.parse(await readFile(join(directory, "package.json"), "utf8"));
      if (typeof manifest.name === "string") found = { name: manifest.name, root: directory };
    } catch {
      // No package.json here: keep walking up.
    }
    const parent = dirname(directory);
    if (found === undefined && parent !== directory) found = await ownerOf(parent);
    owners.set(directory, found);
    return found;
  };
  /** @type {Map<string, Set<string>>} */
  const roots = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    if (input.includes(":")) continue; // a plugin's virtual module
    const owner = await ownerOf(dirname(resolve(packageDir, input)));
    if (owner === undefined || !SINGLE_COPY.includes(owner.name)) continue;
    roots.set(owner.name, (roots.get(owner.name) ?? new Set()).add(owner.root));
  }
  for (const [name, found] of roots) {
    if (found.size > 1) {
      throw new Error(
        `The bundle holds ${found.size} copies of ${name} (${[...found].join(", ")}). Tools and the host ` +
          "must share one: give every package the same version range of it and reinstall.",
      );
    }
  }
}

/**
 * Fails when a bundled CommonJS module `require`s something outside the bundle (a Node
 * built-in, an external): in ESM output esbuild turns that into a call that throws at run time
 * (its shim's message, searched for here, says so). None does today, so the bundle needs no
 * `require` of its own.
 *
 * @param {string} packageDir
 * @param {import("esbuild").Metafile} metafile
 */
export async function assertNoDynamicRequire(packageDir, metafile) {
  for (const output of Object.keys(metafile.outputs)) {
    const code = await readFile(join(packageDir, output), "utf8");
    if (code.includes("Dynamic require of")) {
      throw new Error(
        `packages/cli/${output}: a bundled CommonJS module calls require() for a module outside the bundle, ` +
          'which throws "Dynamic require … is not supported" in ESM output. Give the build a banner that ' +
          "defines `require` with createRequire(import.meta.url), or keep the package external.",
      );
    }
  }
}
