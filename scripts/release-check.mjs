// Checks the tarballs `release:pack` wrote to `artifacts/` the way the registry's users meet
// them: publint (the manifest, "exports", "files"), Are the Types Wrong (types for each
// entry point under every TypeScript resolution mode) and the source maps (every source a
// shipped `.map` names is shipped too, or carried in its `sourcesContent`: a debugger or an
// editor's "go to definition" must not land on a missing file). The packages are ESM-only, so attw runs
// with `--profile esm-only`: CommonJS consumers under node16 resolution use `import()` (see
// each package README's Install section); node10, node16-from-ESM and bundler must be clean.
//
//   node scripts/release-check.mjs [DIR]      (root script: `pnpm release:check`; DIR defaults to artifacts/)
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const bin = (name) =>
  join(repoRoot, "node_modules", ".bin", process.platform === "win32" ? `${name}.cmd` : name);

const directory = resolve(process.argv[2] ?? join(repoRoot, "artifacts"));
const tarballs = (await readdir(directory).catch(() => []))
  .filter((name) => name.endsWith(".tgz"))
  .map((name) => join(directory, name));
if (tarballs.length === 0) {
  process.stderr.write(`release:check: no tarballs in ${directory}; run \`pnpm release:pack\` first.\n`);
  process.exit(2);
}

const failed = [];
for (const tarball of tarballs) {
  const shown = relative(process.cwd(), tarball);
  const checks = [
    ["publint", ["run", tarball, "--strict", "--pack", "false"]],
    ["attw", [tarball, "--profile", "esm-only", "--format", "ascii", "--no-emoji"]],
  ];
  for (const [tool, args] of checks) {
    process.stdout.write(`\n$ ${tool} ${args.map((arg) => (arg === tarball ? shown : arg)).join(" ")}\n`);
    const run = spawnSync(bin(tool), args, { stdio: "inherit", shell: process.platform === "win32" });
    if (run.status !== 0) failed.push(`${tool} ${shown}`);
  }
  const missing = await missingMapSources(tarball);
  process.stdout.write(
    `\n$ source maps of ${shown}: ${missing.length === 0 ? "every source is shipped" : ""}\n`,
  );
  for (const line of missing.slice(0, 20)) process.stdout.write(`  ${line}\n`);
  if (missing.length > 20) process.stdout.write(`  … and ${missing.length - 20} more\n`);
  if (missing.length > 0)
    failed.push(
      `source maps ${shown} (${missing.length} missing ${missing.length === 1 ? "source" : "sources"})`,
    );
}

/**
 * `<map>: <source>` for each source a `.map` file of the tarball names that the tarball does
 * not hold and the map does not carry (`sourcesContent`).
 */
async function missingMapSources(tarball) {
  const folder = await mkdtemp(join(tmpdir(), "tooldock-release-check-"));
  try {
    const untar = spawnSync("tar", ["-xzf", tarball, "-C", folder], { stdio: "inherit" });
    if (untar.status !== 0) return [`${tarball}: could not be unpacked with tar`];
    const missing = [];
    const walk = async (directory) => {
      for (const entry of await readdir(directory, { withFileTypes: true })) {
        const path = join(directory, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.name.endsWith(".map")) {
          const map = JSON.parse(readFileSync(path, "utf8"));
          const root = resolve(dirname(path), map.sourceRoot ?? "");
          for (const [index, source] of (map.sources ?? []).entries()) {
            if (typeof map.sourcesContent?.[index] === "string") continue;
            if (!existsSync(resolve(root, source))) missing.push(`${relative(folder, path)}: ${source}`);
          }
        }
      }
    };
    await walk(folder);
    return missing;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
if (failed.length > 0) {
  process.stderr.write(`\nrelease:check failed: ${failed.join("; ")}\n`);
  process.exit(1);
}
process.stdout.write(
  `\nrelease:check: ${tarballs.length} tarballs pass publint, attw (esm-only profile) and the source-map check\n`,
);
