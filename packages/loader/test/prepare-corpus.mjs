// Prepares a copy of the broken-module corpus (test/corpus/<family>-<case>/) for a run: copies
// it and applies each case's `setup` from its expected.json (generated files, symbolic links,
// permissions). Used by corpus.test.ts and by anyone running the corpus out of process:
//
//   node packages/loader/test/prepare-corpus.mjs /tmp/tooldock-corpus
//
// prints the prepared cases as JSON. See test/corpus/README.md.
import { chmod, cp, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The committed corpus. */
export const corpusDir = join(dirname(fileURLToPath(import.meta.url)), "corpus");

/** Every case of the committed corpus, in name order: `{ id, expected }`. */
export async function readCorpusCases() {
  const entries = await readdir(corpusDir, { withFileTypes: true });
  const ids = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    ids.map(async (id) => ({
      id,
      expected: JSON.parse(await readFile(join(corpusDir, id, "expected.json"), "utf8")),
    })),
  );
}

/**
 * Copies the corpus to `target` (replacing it) and applies every case's setup. Modules that a
 * `symlink-outside` setup links to live in `<target>-outside/`. Returns the prepared cases and a
 * `cleanup()` that restores permissions and removes both folders.
 */
export async function prepareCorpus(target) {
  const root = resolve(target);
  const outside = `${root}-outside`;
  await cleanupFolders(root, outside);
  await cp(corpusDir, root, { recursive: true });
  await mkdir(outside, { recursive: true });
  const restore = [];
  const cases = [];
  for (const { id, expected } of await readCorpusCases()) {
    const dir = join(root, id);
    const prepared = { id, dir, expected };
    for (const step of expected.setup ?? []) {
      const skipped = await applySetup(step, { dir, outside: join(outside, id), restore, prepared });
      if (skipped !== undefined) prepared.skipped = skipped;
    }
    cases.push(prepared);
  }
  return {
    root,
    outside,
    cases,
    async cleanup() {
      for (const undo of restore) await undo();
      await cleanupFolders(root, outside);
    },
  };
}

async function applySetup(step, { dir, outside, restore, prepared }) {
  switch (step.kind) {
    case "binary-file":
      await writeFile(join(dir, step.file), binaryBytes(step.bytes));
      return undefined;
    case "large-file":
      await writeFile(join(dir, step.file), largeModule(step.bytes));
      return undefined;
    case "symlink":
      await symlink(step.target, join(dir, step.file));
      return undefined;
    case "symlink-outside": {
      await mkdir(outside, { recursive: true });
      const real = join(outside, "tool.ts");
      await writeFile(real, await readFile(join(dir, step.source)));
      await symlink(real, join(dir, step.file));
      return undefined;
    }
    case "chmod": {
      const path = join(dir, step.path);
      const isFolder = (await stat(path)).isDirectory();
      await chmod(path, step.mode);
      restore.push(() => chmod(path, isFolder ? 0o755 : 0o644));
      try {
        if (isFolder) await readdir(path);
        else await readFile(path);
      } catch {
        return undefined; // the permission bits hold: the case is meaningful
      }
      return `chmod ${step.mode.toString(8).padStart(3, "0")} does not stop this process from reading ${step.path} (it runs as root or with CAP_DAC_OVERRIDE), so the path cannot be made unreadable here`;
    }
    case "remove-during-scan":
      prepared.removeDuringScan = join(dir, step.path);
      return undefined;
    default:
      throw new Error(`Unknown corpus setup kind "${step.kind}" in ${dir}/expected.json.`);
  }
}

/** Bytes that are not text: NUL, invalid UTF-8 sequences, control characters. */
function binaryBytes(size) {
  const bytes = Buffer.alloc(size);
  for (let index = 0; index < size; index += 1) bytes[index] = (index * 37 + 11) & 0xff;
  return bytes;
}

/** A single-line module of exactly `size` bytes whose syntax error is at its very end. */
function largeModule(size) {
  const head = 'const padding = "';
  const tail = '"; export default () => [padding]; const broken: = 1;';
  return `${head}${"x".repeat(size - head.length - tail.length)}${tail}`;
}

async function cleanupFolders(...folders) {
  for (const folder of folders) {
    await rm(folder, { recursive: true, force: true }).catch(async () => {
      // A folder left at mode 000 by an interrupted run: make it removable first.
      await chmod(folder, 0o755).catch(() => {});
      await rm(folder, { recursive: true, force: true });
    });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (target === undefined) {
    console.error("usage: node packages/loader/test/prepare-corpus.mjs <target folder>");
    process.exitCode = 2;
  } else {
    const prepared = await prepareCorpus(target);
    const summary = prepared.cases.map(({ id, dir, expected, skipped, removeDuringScan }) => ({
      id,
      dir,
      code: expected.code,
      severity: expected.severity,
      ...(skipped === undefined ? {} : { skipped }),
      ...(removeDuringScan === undefined ? {} : { inProcessOnly: true }),
    }));
    console.log(JSON.stringify({ root: prepared.root, outside: prepared.outside, cases: summary }, null, 2));
  }
}
