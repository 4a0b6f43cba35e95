import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ApplyJournal, type JournalEntry, writeJournal } from "./apply-journal.js";
import { resolveFileSystem } from "./file-system.js";
import { hashContent } from "./hash-content.js";
import { processMayBeRunning, recoverInterruptedApplies } from "./recover.js";

const fileSystem = resolveFileSystem();
const gone = () => false;
const running = () => true;
const hash = (text: string) => hashContent(Buffer.from(text));
const TEMP = "0123456789ab";

let base: string;
let cwd: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "tooldock-ast-edit-recover-"));
  cwd = join(base, "project");
  await mkdir(cwd);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/** Every file under `directory`, relative, sorted (symbolic links listed, not followed). */
async function tree(directory = cwd): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1))
    .sort();
}

/** A file staged by an apply: target with `before`, temporary file with `after` (when staged). */
async function stage(name: string, before: string, after: string, staged = true): Promise<JournalEntry> {
  const path = join(cwd, "src", name);
  const temporaryPath = join(cwd, "src", `.${name}.${TEMP}.tooldock-tmp`);
  await put(path, before);
  if (staged) await put(temporaryPath, after);
  return { path, temporaryPath, beforeHash: hash(before), afterHash: hash(after) };
}

function journal(state: ApplyJournal["state"], files: JournalEntry[]): ApplyJournal {
  return { version: 1, state, pid: 1, hostname: hostname(), files };
}

const JOURNAL = ".tooldock-ast-edit-00000000000a.journal";

describe("recoverInterruptedApplies", () => {
  it("rolls back a prepared apply: removes its temporary files and journal, keeps every file", async () => {
    const files = [await stage("a.ts", "a0", "a1"), await stage("b.ts", "b0", "b1", false)];
    await writeJournal(fileSystem, join(cwd, JOURNAL), journal("prepared", files));

    const notes = await recoverInterruptedApplies(fileSystem, cwd, gone);

    expect(await tree()).toEqual(["src/a.ts", "src/b.ts"]);
    expect(await readFile(join(cwd, "src/a.ts"), "utf8")).toBe("a0");
    expect(notes).toEqual([
      "An ast_edit apply was interrupted before it wrote anything; it was rolled back and 2 file(s) keep their previous text.",
    ]);
  });

  it("rolls a committed apply forward: renames the staged files that were not renamed yet", async () => {
    const done = await stage("a.ts", "a0", "a1", false);
    await writeFile(done.path, "a1"); // renamed before the crash
    const files = [done, await stage("b.ts", "b0", "b1"), await stage("c.ts", "c0", "c1")];
    await writeJournal(fileSystem, join(cwd, JOURNAL), journal("committed", files));

    const notes = await recoverInterruptedApplies(fileSystem, cwd, gone);

    expect(await tree()).toEqual(["src/a.ts", "src/b.ts", "src/c.ts"]);
    for (const name of ["a", "b", "c"])
      expect(await readFile(join(cwd, `src/${name}.ts`), "utf8")).toBe(`${name}1`);
    expect(notes).toEqual([
      "An interrupted ast_edit apply of 3 file(s) was completed: wrote src/b.ts, src/c.ts.",
    ]);
  });

  it("does not overwrite a file that changed after the crash, and says so", async () => {
    const files = [await stage("a.ts", "a0", "a1"), await stage("b.ts", "b0", "b1")];
    await writeFile(files[1]?.path ?? "", "edited by hand");
    await writeJournal(fileSystem, join(cwd, JOURNAL), journal("committed", files));

    const notes = await recoverInterruptedApplies(fileSystem, cwd, gone);

    expect(await readFile(join(cwd, "src/a.ts"), "utf8")).toBe("a1");
    expect(await readFile(join(cwd, "src/b.ts"), "utf8")).toBe("edited by hand");
    expect(await tree()).toEqual(["src/a.ts", "src/b.ts"]);
    expect(notes[0]).toBe(
      "An interrupted ast_edit apply of 2 file(s) was completed: wrote src/a.ts. Not written because they changed since (check them): src/b.ts.",
    );
  });

  it("leaves the journal and temporary files of an apply whose process may still run", async () => {
    const files = [await stage("a.ts", "a0", "a1")];
    await writeJournal(fileSystem, join(cwd, JOURNAL), journal("committed", files));
    await put(join(cwd, `src/.orphan.ts.${TEMP}.tooldock-tmp`), "half");

    expect(await recoverInterruptedApplies(fileSystem, cwd, running)).toEqual([]);

    expect(await tree()).toEqual([JOURNAL, `src/.a.ts.${TEMP}.tooldock-tmp`, "src/a.ts"]);
  });

  it("removes only files named exactly like its temporary files, outside node_modules and symbolic links", async () => {
    const outside = join(base, "outside");
    await put(join(outside, `.x.ts.${TEMP}.tooldock-tmp`), "not ours");
    await symlink(outside, join(cwd, "linked"));
    const kept = [
      "notes.tooldock-tmp",
      `.a.ts.${TEMP.toUpperCase()}.tooldock-tmp`,
      `.a.ts.${TEMP}.tooldock-tmp.bak`,
      `node_modules/pkg/.index.js.${TEMP}.tooldock-tmp`,
      `.git/.HEAD.${TEMP}.tooldock-tmp`,
    ];
    for (const path of [...kept, `.a.ts.${TEMP}.tooldock-tmp`, `deep/er/.b.css.${TEMP}.tooldock-tmp`])
      await put(join(cwd, path), "x");

    expect(await recoverInterruptedApplies(fileSystem, cwd, gone)).toEqual([]);

    expect(await tree()).toEqual([...kept, "linked"].sort());
    expect(await tree(outside)).toEqual([`.x.ts.${TEMP}.tooldock-tmp`]);
  });

  it("finishes a journal written in a directory above cwd when all its files are inside cwd", async () => {
    const files = [await stage("a.ts", "a0", "a1")];
    await writeJournal(fileSystem, join(base, JOURNAL), journal("committed", files));

    await recoverInterruptedApplies(fileSystem, cwd, gone);

    expect(await readFile(join(cwd, "src/a.ts"), "utf8")).toBe("a1");
    expect(await tree(base)).toEqual(["project/src/a.ts"]);
  });

  it("leaves a journal that covers files outside cwd, with its temporary files", async () => {
    const files = [await stage("a.ts", "a0", "a1")];
    const elsewhere = join(base, "other/b.ts");
    await put(elsewhere, "b0");
    files.push({ path: elsewhere, temporaryPath: `${elsewhere}.tmp`, beforeHash: hash("b0"), afterHash: "" });
    await writeJournal(fileSystem, join(base, JOURNAL), journal("committed", files));

    const notes = await recoverInterruptedApplies(fileSystem, cwd, gone);

    expect(notes).toEqual([
      `An interrupted ast_edit apply (${join(base, JOURNAL)}) also covers files outside ${cwd}; run ast_edit with cwd ${base} to finish it.`,
    ]);
    expect(await tree()).toEqual([`src/.a.ts.${TEMP}.tooldock-tmp`, "src/a.ts"]);
  });

  it("leaves a file with a journal's name that it cannot read, and says so", async () => {
    await put(join(cwd, JOURNAL), "{ not json");
    const notes = await recoverInterruptedApplies(fileSystem, cwd, gone);
    expect(notes).toEqual([
      `Left ${join(cwd, JOURNAL)} alone: it is not an ast_edit journal this version can read.`,
    ]);
    expect(await tree()).toEqual([JOURNAL]);
  });
});

describe("processMayBeRunning", () => {
  it("is true for this process and for another host, false for a process that has exited", () => {
    const exited = spawnSync(process.execPath, ["-e", ""]).pid;
    expect(processMayBeRunning({ ...journal("prepared", []), pid: process.pid })).toBe(true);
    expect(processMayBeRunning({ ...journal("prepared", []), pid: exited })).toBe(false);
    expect(processMayBeRunning({ ...journal("prepared", []), pid: exited, hostname: "elsewhere" })).toBe(
      true,
    );
  });
});
