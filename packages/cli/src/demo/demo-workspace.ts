import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

/** The demo's scratch space: a workspace for the tools and the compile cache, both temporary. */
export interface DemoWorkspace {
  root: string;
  /** The session's `cwd`: the files the tools rename and rewrite. */
  cwd: string;
  /** The loader's compile cache for this run. */
  cacheDir: string;
  /** `ast_edit`'s state folder (its apply journals and their key) for this run. */
  stateDirectory: string;
  /** Removes everything the demo created. */
  remove(): Promise<void>;
}

const SEED_FILES: Record<string, string> = {
  "draft-intro.md": "# Intro\n",
  "draft-usage.md": "# Usage\n",
  "notes.txt": "keep me\n",
  "src/log.ts":
    'export function greet(name: string) {\n  console.log("hello", name);\n  console.log("done");\n}\n',
};

/** Creates the workspace under the OS temp folder and seeds it with a few files. */
export async function createDemoWorkspace(): Promise<DemoWorkspace> {
  const root = await mkdtemp(join(tmpdir(), "tooldock-demo-"));
  const cwd = join(root, "workspace");
  const cacheDir = join(root, "cache");
  const stateDirectory = join(root, "state");
  for (const [path, content] of Object.entries(SEED_FILES)) {
    await mkdir(join(cwd, path, ".."), { recursive: true });
    await writeFile(join(cwd, path), content);
  }
  return { root, cwd, cacheDir, stateDirectory, remove: () => rm(root, { recursive: true, force: true }) };
}

/** Every file under `directory`, relative to it, sorted. */
export async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)))
    .sort();
}
