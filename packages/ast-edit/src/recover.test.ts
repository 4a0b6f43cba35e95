import { spawnSync } from "node:child_process";
import {
  chmod,
  chown,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ApplyJournal, hostTag, type JournalEntry, writeJournal } from "./apply-journal.js";
import { type AstEditFileSystem, resolveFileSystem } from "./file-system.js";
import { hashContent } from "./hash-content.js";
import { JOURNAL_FOLDER_NAME, type JournalFolder, openJournalFolder } from "./journal-folder.js";
import { processMayBeRunning, recoverInterruptedApplies } from "./recover.js";

const fileSystem = resolveFileSystem();
const gone = () => false;
const running = () => true;
const hash = (text: string) => hashContent(Buffer.from(text));
const TEMP = "0123456789ab";
/** A journal name as an apply makes it: host tag, pid (of no running process), random part. */
const journalName = (last: string, pid = 2 ** 22 + 1) => `${hostTag()}-${pid}-00000000000${last}.journal`;
const JOURNAL = journalName("a");
const isRoot = process.getuid?.() === 0;

let base: string;
let cwd: string;
let stateDirectory: string;
let journals: JournalFolder;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "tooldock-ast-edit-recover-"));
  cwd = join(base, "project");
  stateDirectory = join(base, "state");
  await mkdir(cwd);
  const opened = await openJournalFolder(fileSystem, stateDirectory, { create: true });
  if (opened.kind !== "ready") throw new Error(`journal folder: ${JSON.stringify(opened)}`);
  journals = opened;
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const recover = (ownerMayBeRunning = gone, fs: AstEditFileSystem = fileSystem) =>
  recoverInterruptedApplies(fs, cwd, { stateDirectory, ownerMayBeRunning });

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

function journal(state: ApplyJournal["state"], files: JournalEntry[], journalCwd = cwd): ApplyJournal {
  return { version: 2, state, pid: 1, hostname: hostname(), cwd: journalCwd, files };
}

const journalPath = (name = JOURNAL) => join(journals.folder, name);
const save = (value: ApplyJournal, name = JOURNAL) =>
  writeJournal(fileSystem, journalPath(name), value, journals.key);
const journalFolderNames = async () => (await readdir(journals.folder)).sort();

describe("recoverInterruptedApplies", () => {
  it("rolls back a prepared apply: removes its temporary files and journal, keeps every file", async () => {
    await save(
      journal("prepared", [await stage("a.ts", "a0", "a1"), await stage("b.ts", "b0", "b1", false)]),
    );

    const notes = await recover();

    expect(await tree()).toEqual(["src/a.ts", "src/b.ts"]);
    expect(await readFile(join(cwd, "src/a.ts"), "utf8")).toBe("a0");
    expect(await journalFolderNames()).toEqual(["journal.key"]);
    expect(notes).toEqual([
      "An ast_edit apply was interrupted before it wrote anything; it was rolled back and 2 files keep their previous text.",
    ]);
  });

  it("rolls a committed apply forward: renames the staged files that were not renamed yet", async () => {
    const done = await stage("a.ts", "a0", "a1", false);
    await writeFile(done.path, "a1"); // renamed before the crash
    await save(
      journal("committed", [done, await stage("b.ts", "b0", "b1"), await stage("c.ts", "c0", "c1")]),
    );

    const notes = await recover();

    expect(await tree()).toEqual(["src/a.ts", "src/b.ts", "src/c.ts"]);
    for (const name of ["a", "b", "c"])
      expect(await readFile(join(cwd, `src/${name}.ts`), "utf8")).toBe(`${name}1`);
    expect(notes).toEqual([
      "An interrupted ast_edit apply of 3 files was completed: wrote src/b.ts, src/c.ts.",
    ]);
    expect(await journalFolderNames()).toEqual(["journal.key"]);
  });

  it("does not overwrite a file that changed after the crash, nor rename a staged file that does not hold the staged text", async () => {
    const files = [
      await stage("a.ts", "a0", "a1"),
      await stage("b.ts", "b0", "b1"),
      await stage("c.ts", "c0", "c1"),
    ];
    await writeFile(files[1]?.path ?? "", "edited by hand");
    await writeFile(files[2]?.temporaryPath ?? "", "swapped in");
    await save(journal("committed", files));

    const notes = await recover();

    expect(await readFile(join(cwd, "src/a.ts"), "utf8")).toBe("a1");
    expect(await readFile(join(cwd, "src/b.ts"), "utf8")).toBe("edited by hand");
    expect(await readFile(join(cwd, "src/c.ts"), "utf8")).toBe("c0");
    expect(await tree()).toEqual(["src/a.ts", "src/b.ts", "src/c.ts"]);
    expect(notes[0]).toBe(
      "An interrupted ast_edit apply of 3 files was completed: wrote src/a.ts. Not written because they changed since (check them): src/b.ts, src/c.ts.",
    );
  });

  it("leaves the journal and temporary files of an apply whose process may still run", async () => {
    await save(journal("committed", [await stage("a.ts", "a0", "a1")]));
    expect(await recover(running)).toEqual([]);
    expect(await tree()).toEqual([`src/.a.ts.${TEMP}.tooldock-tmp`, "src/a.ts"]);
    expect(await journalFolderNames()).toEqual([JOURNAL, "journal.key"]);
  });

  it("leaves the journals of other working directories alone, without a note", async () => {
    const other = join(base, "other");
    await put(join(other, "a.ts"), "a0");
    await put(join(other, `.a.ts.${TEMP}.tooldock-tmp`), "a1");
    const entry = {
      path: join(other, "a.ts"),
      temporaryPath: join(other, `.a.ts.${TEMP}.tooldock-tmp`),
      beforeHash: hash("a0"),
      afterHash: hash("a1"),
    };
    await save(journal("committed", [entry], other));

    expect(await recover()).toEqual([]);
    expect(await readFile(join(other, "a.ts"), "utf8")).toBe("a0");
    expect(await journalFolderNames()).toEqual([JOURNAL, "journal.key"]);
  });

  it("acts on no target outside the journal's working directory and on no file an apply does not create", async () => {
    const outside = join(base, "outside.ts");
    await put(outside, "keep");
    const planted = join(cwd, "src/planted.ts");
    await put(planted, "planted");
    const a = await stage("a.ts", "a0", "a1");
    await save(
      journal("prepared", [
        a,
        { ...a, path: outside, temporaryPath: join(base, `.outside.ts.${TEMP}.tooldock-tmp`) },
      ]),
      journalName("b"),
    );
    await save(journal("committed", [{ ...a, temporaryPath: planted }]), journalName("c"));

    const notes = await recover();

    expect(notes).toEqual([
      `Left ${journalPath(journalName("b"))} alone: it lists ${outside}, which is not inside its working directory ${cwd}.`,
      `Left ${journalPath(journalName("c"))} alone: it lists ${planted}, which is not a temporary file an apply of ${a.path} makes.`,
    ]);
    expect(await readFile(outside, "utf8")).toBe("keep");
    expect(await readFile(a.path, "utf8")).toBe("a0");
    expect(await tree()).toEqual([`src/.a.ts.${TEMP}.tooldock-tmp`, "src/a.ts", "src/planted.ts"]);
  });

  it("leaves a journal whose MAC does not match or whose mode is not 0600, and says so", async () => {
    const files = [await stage("a.ts", "a0", "a1")];
    await writeJournal(
      fileSystem,
      journalPath(journalName("d")),
      journal("committed", files),
      Buffer.alloc(32, 7),
    );
    await save(journal("committed", files), journalName("e"));
    await chmod(journalPath(journalName("e")), 0o644);
    await put(journalPath(journalName("f")), "{ not a journal");
    await chmod(journalPath(journalName("f")), 0o600);

    const notes = await recover();

    expect(notes).toEqual([
      `Left ${journalPath(journalName("d"))} alone: its MAC does not match: ast_edit did not write it, or it was cut short.`,
      `Left ${journalPath(journalName("e"))} alone: it has mode 644, not 600.`,
      `Left ${journalPath(journalName("f"))} alone: its MAC does not match: ast_edit did not write it, or it was cut short.`,
    ]);
    expect(await readFile(join(cwd, "src/a.ts"), "utf8")).toBe("a0");
    expect(await tree()).toEqual([`src/.a.ts.${TEMP}.tooldock-tmp`, "src/a.ts"]);
  });

  it.skipIf(!isRoot)("leaves a journal and a staged file owned by another user", async () => {
    const files = [await stage("a.ts", "a0", "a1")];
    await save(journal("committed", files), journalName("d"));
    await chown(journalPath(journalName("d")), 4321, 4321);
    await save(journal("committed", files));
    await chown(files[0]?.temporaryPath ?? "", 4321, 4321);

    const notes = await recover();

    expect(notes).toEqual([
      "An interrupted ast_edit apply of 1 file was completed: every file had been written. Not written because they changed since (check them): src/a.ts.",
      `Left ${journalPath(journalName("d"))} alone: it is owned by user id 4321, not by you (user id 0).`,
    ]);
    expect(await readFile(join(cwd, "src/a.ts"), "utf8")).toBe("a0");
    expect(await tree()).toEqual([`src/.a.ts.${TEMP}.tooldock-tmp`, "src/a.ts"]);
  });

  it("does not follow a folder replaced by a symbolic link since the crash", async () => {
    const files = [await stage("a.ts", "a0", "a1")];
    await save(journal("committed", files));
    const elsewhere = join(base, "elsewhere");
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, "a.ts"), "a0");
    await writeFile(join(elsewhere, `.a.ts.${TEMP}.tooldock-tmp`), "a1");
    await rm(join(cwd, "src"), { recursive: true });
    await symlink(elsewhere, join(cwd, "src"));

    await recover();

    expect(await tree(elsewhere)).toEqual([`.a.ts.${TEMP}.tooldock-tmp`, "a.ts"]);
    expect(await readFile(join(elsewhere, "a.ts"), "utf8")).toBe("a0");
  });

  it("lists only the journal folder: it never walks the working tree", async () => {
    await put(join(cwd, `src/.stray.ts.${TEMP}.tooldock-tmp`), "not listed in any journal");
    await save(journal("prepared", [await stage("a.ts", "a0", "a1")]));
    const listed: string[] = [];
    const counting = resolveFileSystem({
      readdir: ((path: string, ...rest: []) => {
        listed.push(path);
        return fileSystem.readdir(path, ...rest);
      }) as AstEditFileSystem["readdir"],
    });

    await recover(gone, counting);

    expect(listed).toEqual([journals.folder]);
    expect(await tree()).toEqual([`src/.stray.ts.${TEMP}.tooldock-tmp`, "src/a.ts"]);
  });

  it("does nothing, and makes no folder, when there is no journal folder", async () => {
    await rm(stateDirectory, { recursive: true });
    expect(await recover()).toEqual([]);
    expect(await readdir(base)).toEqual(["project"]);
  });

  it("does nothing but say so when the journal folder is writable by others", async () => {
    await save(journal("prepared", [await stage("a.ts", "a0", "a1")]));
    await chmod(journals.folder, 0o777);

    const notes = await recover();

    expect(notes).toEqual([
      `ast_edit did not look for interrupted applies, and will not apply, because ${journals.folder} is writable by group or others (mode 777). Make it a folder of your own that only you can write to (chmod 700), or point TOOLDOCK_STATE_DIR at one.`,
    ]);
    expect(await tree()).toEqual([`src/.a.ts.${TEMP}.tooldock-tmp`, "src/a.ts"]);
    expect((await readdir(journals.folder)).length).toBe(2);
    expect(JOURNAL_FOLDER_NAME).toBe("ast-edit-journals");
  });

  it("removes the journal's own temporary file left by a crash while it was written", async () => {
    await save(journal("prepared", [await stage("a.ts", "a0", "a1")]));
    await put(join(journals.folder, `.${JOURNAL}.${TEMP}.tooldock-tmp`), "half a journal");
    await recover();
    expect(await journalFolderNames()).toEqual(["journal.key"]);
  });

  it("removes the temporary file of a journal never renamed into place once its process is gone", async () => {
    const gonePid = spawnSync(process.execPath, ["-e", ""]).pid;
    const orphan = `.${journalName("b", gonePid)}.${TEMP}.tooldock-tmp`;
    const live = `.${journalName("c", process.pid)}.${TEMP}.tooldock-tmp`;
    const elsewhere = `.${journalName("d").replace(hostTag(), "0badc0de")}.${TEMP}.tooldock-tmp`;
    const elsewhereOld = `.${journalName("e").replace(hostTag(), "0badc0de")}.${TEMP}.tooldock-tmp`;
    for (const name of [orphan, live, elsewhere, elsewhereOld])
      await put(join(journals.folder, name), "half a journal");
    // Another host's writer cannot be asked: its file counts as litter once a day old.
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await utimes(join(journals.folder, elsewhereOld), twoDaysAgo, twoDaysAgo);
    await recover();
    expect(await journalFolderNames()).toEqual([elsewhere, live, "journal.key"].sort());
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
