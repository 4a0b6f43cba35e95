import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess } from "../../../scripts/run-process.mjs";
import { cacheWritesSettled } from "../src/load/cache-writes.js";

/** The repository root and the built CLI the end-to-end tests spawn. */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const cliPackageDir = join(repoRoot, "packages/cli");
/** What `tooldock` runs once installed: the `bin` of package.json (the bundle in `dist/bundle/`). */
export const cliBin = join(
  cliPackageDir,
  (JSON.parse(readFileSync(join(cliPackageDir, "package.json"), "utf8")) as { bin: { tooldock: string } }).bin
    .tooldock,
);
export const examplesDir = join(repoRoot, "packages/examples");
export const fixturesDir = fileURLToPath(new URL("./fixtures", import.meta.url));
export const brokenDir = join(fixturesDir, "broken-modules");

/** A tool module (`.mjs`) named `where` that answers its session's working folder. */
export const WHERE_TOOL = `export default (pi) => ({
  name: "where",
  label: "Where",
  description: "Answers the working folder.",
  parameters: pi.typebox.Type.Object({}),
  execute: async (_id, _params, _onUpdate, ctx) => ({ content: [{ type: "text", text: ctx.cwd }] }),
});
`;

/** The tools of the example package (`packages/examples`), in the order `list` and `schema` give them. */
export const EXAMPLE_TOOL_NAMES: readonly string[] = [
  "batch_rename_preview",
  "text_stats",
  "run_commands",
  "note_add",
  "note_list",
  "note_clear",
  "project_info",
];

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const BUILD_COMMAND = "pnpm build, or npx tsc -b tsconfig.build.json && node packages/cli/scripts/bundle.mjs";

/** The newest `.js` tsc wrote for the packages the bundle holds (its `dist/bundle/` aside). */
function newestTscOutput(): { path: string; mtimeMs: number } {
  let newest = { path: "", mtimeMs: 0 };
  for (const name of ["sdk", "runtime", "loader", "cli"]) {
    const dist = join(repoRoot, "packages", name, "dist");
    for (const relative of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
      const path = join(dist, relative);
      if (!path.endsWith(".js") || path.startsWith(dirname(cliBin))) continue;
      const { mtimeMs } = statSync(path);
      if (mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
    }
  }
  return newest;
}

/**
 * Fails with what to do when the CLI has not been built, or when the bundle the e2e tests run
 * is older than tsc's output (tsc was run without the bundle step after it).
 */
export function assertBuilt(): void {
  if (!existsSync(cliBin)) throw new Error(`${cliBin} is missing: build first (${BUILD_COMMAND}).`);
  const newest = newestTscOutput();
  if (statSync(cliBin).mtimeMs < newest.mtimeMs) {
    throw new Error(`${cliBin} is older than ${newest.path}: bundle again (${BUILD_COMMAND}).`);
  }
}

/**
 * Runs `node …nodeArgs <cliBin> …args` to completion; output is piped (not a TTY).
 * `nodeArgs` are Node's own flags, e.g. `--max-old-space-size=96`.
 */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; nodeArgs?: string[] } = {},
): Promise<CliRun> {
  return runProcess(process.execPath, [...(options.nodeArgs ?? []), cliBin, ...args], options);
}

/**
 * Runs `binary …args` to completion (another runtime, a script), as {@link runCli} runs the
 * CLI: in the repository unless `cwd`, without colour, output piped.
 */
export { runProcess };

/** A temporary folder seeded with files; `remove()` deletes it. */
export async function tempDir(files: Record<string, string> = {}) {
  const path = await mkdtemp(join(tmpdir(), "tooldock-cli-e2e-"));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(path, name, ".."), { recursive: true });
    await writeFile(join(path, name), content);
  }
  return { path, remove: () => removeAfterCacheWrites(path) };
}

/**
 * Removes `path` once the cache writes of commands this process ran in-process (`run`) have
 * settled: on Node 22.15+ a cold load returns before its packs are written (file by file,
 * packs after), and a folder removed under them fails with ENOTEMPTY. A tool host whose server
 * was just stopped may still be writing its own packs there as it ends (seen on Node 22), which
 * this process cannot wait for: `rm` tries again on ENOTEMPTY.
 */
export async function removeAfterCacheWrites(path: string): Promise<void> {
  await cacheWritesSettled(60_000);
  await rm(path, { recursive: true, force: true, maxRetries: 10 });
}

/**
 * Collects `child`'s stderr as it arrives: `stderr()` is what came so far, `stderrIncludes`
 * resolves once it holds `text` (it may come after what stdout carried).
 */
export function watchStderr(child: ChildProcessWithoutNullStreams) {
  let stderr = "";
  const waiting = new Set<{ text: string; resolve: () => void }>();
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    for (const wait of waiting)
      if (stderr.includes(wait.text)) {
        waiting.delete(wait);
        wait.resolve();
      }
  });
  return {
    stderr: () => stderr,
    stderrIncludes: (text: string) =>
      new Promise<void>((resolve) => {
        if (stderr.includes(text)) resolve();
        else waiting.add({ text, resolve });
      }),
  };
}
