// Checks the tarballs `release:pack` wrote to `artifacts/` the way the registry's users meet
// them: publint (the manifest, "exports", "files") and Are the Types Wrong (types for each
// entry point under every TypeScript resolution mode). The packages are ESM-only, so attw runs
// with `--profile esm-only`: CommonJS consumers under node16 resolution use `import()` (see
// each package README's Install section); node10, node16-from-ESM and bundler must be clean.
//
//   node scripts/release-check.mjs [DIR]      (root script: `pnpm release:check`; DIR defaults to artifacts/)
import { spawnSync } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
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
}
if (failed.length > 0) {
  process.stderr.write(`\nrelease:check failed: ${failed.join("; ")}\n`);
  process.exit(1);
}
process.stdout.write(
  `\nrelease:check: ${tarballs.length} tarballs pass publint and attw (esm-only profile)\n`,
);
