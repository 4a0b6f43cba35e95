import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root and the built CLI the end-to-end tests spawn. */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
export const cliBin = join(repoRoot, "packages/cli/dist/bin.js");
export const examplesDir = join(repoRoot, "packages/examples");
export const brokenDir = fileURLToPath(new URL("./fixtures/broken-modules", import.meta.url));

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

/** Fails with what to do when the CLI has not been built (the e2e tests run `dist/`). */
export function assertBuilt(): void {
  if (!existsSync(cliBin)) {
    throw new Error(`${cliBin} is missing: build first (npx tsc -b tsconfig.build.json, or pnpm build).`);
  }
}

/** Runs `node packages/cli/dist/bin.js …args` to completion; output is piped (not a TTY). */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, ...args], {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A temporary folder seeded with files; `remove()` deletes it. */
export async function tempDir(files: Record<string, string> = {}) {
  const path = await mkdtemp(join(tmpdir(), "tooldock-cli-e2e-"));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(path, name, ".."), { recursive: true });
    await writeFile(join(path, name), content);
  }
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
