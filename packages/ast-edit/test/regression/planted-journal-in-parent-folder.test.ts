import { chmod, readdir, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hostTag, writeJournal } from "../../src/apply-journal.js";
import { createAstEditTool } from "../../src/ast-edit-tool.js";
import { resolveFileSystem } from "../../src/file-system.js";
import { hashContent } from "../../src/hash-content.js";
import { openJournalFolder } from "../../src/journal-folder.js";
import { type AstEditWorkspace, astEditWorkspace, textOf } from "./ast-edit-workspace.js";

// Issue 12, item 2: recovery looked for apply journals in every parent of the working
// directory, so a journal planted in a world-writable parent was "recovered" at the next
// session start: it deleted files outside the working directory (a "prepared" journal's
// temporary files) and moved the planter's file over a source file (a "committed" one).
// Journals now live only in the user's private state folder, and recovery acts only on
// journals this user's ast_edit signed (owner, mode 0600, HMAC with the folder's key), only
// on targets inside the journal's working directory, and only on temporary files named and
// placed as an apply makes them.

const SOURCE = "export const a = foo(1);\n";
const hash = (text: string) => hashContent(Buffer.from(text));
/** A pid above the default Linux pid_max (2^22): no running process has it. */
const DEAD_PID = 2 ** 22 + 1;

let workspace: AstEditWorkspace;
let stateDirectory: string;
let source: string;
let victim: string;
let planterFile: string;

beforeEach(async () => {
  workspace = await astEditWorkspace("planted-journal");
  stateDirectory = join(workspace.root, "state");
  source = await workspace.write("src/a.ts", SOURCE);
  victim = await workspace.write("victim/important.txt", "the victim's file\n", workspace.root);
  planterFile = await workspace.write("planter/payload.ts", "export const owned = true;\n", workspace.root);
});

afterEach(async () => {
  await workspace.remove();
});

/** Journals as the old format read them: one deletes `victim`, one moves `planterFile` over `source`. */
function plantedJournals() {
  const entry = (temporaryPath: string) => ({
    path: source,
    temporaryPath,
    beforeHash: hash(SOURCE),
    afterHash: hash("export const owned = true;\n"),
  });
  const body = (state: string, temporaryPath: string) => ({
    version: 1,
    state,
    pid: DEAD_PID,
    hostname: hostname(),
    cwd: workspace.cwd,
    files: [entry(temporaryPath)],
  });
  return { deletes: body("prepared", victim), moves: body("committed", planterFile) };
}

async function startSession(): Promise<{ session: Session; notes: string }> {
  const session = new Session({ cwd: workspace.cwd });
  session.register(createAstEditTool({ cwd: workspace.cwd, stateDirectory }), "built-in");
  await session.start();
  // The first call reports what recovery did.
  const result = await session.execute({
    toolCallId: "1",
    name: "ast_edit",
    params: { ops: [{ pat: "foo($A)", out: "bar($A)" }] },
  });
  return { session, notes: textOf(result) };
}

async function expectNothingTouched(): Promise<void> {
  expect(await readFile(victim, "utf8")).toBe("the victim's file\n");
  expect(await readFile(planterFile, "utf8")).toBe("export const owned = true;\n");
  expect(await readFile(source, "utf8")).toBe(SOURCE);
}

describe("a journal planted by someone else", () => {
  it("in a parent folder of the working directory is never read", async () => {
    const { deletes, moves } = plantedJournals();
    await writeFile(join(workspace.root, ".tooldock-ast-edit-0000000000aa.journal"), JSON.stringify(deletes));
    await writeFile(join(workspace.root, ".tooldock-ast-edit-0000000000bb.journal"), JSON.stringify(moves));
    await writeFile(join(workspace.cwd, ".tooldock-ast-edit-0000000000cc.journal"), JSON.stringify(moves));

    const { session, notes } = await startSession();
    await session.dispose();

    await expectNothingTouched();
    expect(notes).not.toContain("interrupted");
  });

  it("in the state folder, without the key's MAC or with a mode other than 0600, is left alone", async () => {
    const fileSystem = resolveFileSystem();
    const journals = await openJournalFolder(fileSystem, stateDirectory, { create: true });
    if (journals.kind !== "ready") throw new Error("no journal folder");
    const { deletes, moves } = plantedJournals();
    const name = (last: string) => `${hostTag()}-${DEAD_PID}-0000000000${last}.journal`;
    // Planted as plain JSON, and signed with a key that is not the folder's.
    await writeFile(join(journals.folder, name("aa")), JSON.stringify({ ...deletes, version: 2 }), {
      mode: 0o600,
    });
    await writeJournal(
      fileSystem,
      join(journals.folder, name("bb")),
      { ...moves, version: 2 } as never,
      Buffer.alloc(32),
    );
    // Signed with the right key (as only this user's ast_edit can), but left readable by others.
    await writeJournal(
      fileSystem,
      join(journals.folder, name("cc")),
      { ...moves, version: 2 } as never,
      journals.key,
    );
    await chmod(join(journals.folder, name("cc")), 0o644);

    const { session, notes } = await startSession();
    await session.dispose();

    await expectNothingTouched();
    expect(notes).toContain(`Left ${join(journals.folder, name("aa"))} alone: its MAC does not match`);
    expect(notes).toContain(`Left ${join(journals.folder, name("bb"))} alone: its MAC does not match`);
    expect(notes).toContain(`Left ${join(journals.folder, name("cc"))} alone: it has mode 644, not 600.`);
    expect((await readdir(journals.folder)).sort()).toEqual([
      name("aa"),
      name("bb"),
      name("cc"),
      "journal.key",
    ]);
  });

  it("in a state folder others can write to: no recovery, and apply refuses to write, keeping the action", async () => {
    const journals = await openJournalFolder(resolveFileSystem(), stateDirectory, { create: true });
    await chmod(journals.folder, 0o777);

    const { session, notes } = await startSession();
    expect(notes).toContain(
      `ast_edit did not look for interrupted applies, and will not apply, because ${journals.folder} is writable by group or others (mode 777).`,
    );
    const applied = await session.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(session.pending.size).toBe(1);
    await session.dispose();

    expect(applied.isError).toBe(true);
    expect(textOf(applied)).toContain(
      `Cannot apply AST Edit: it writes a crash journal first, and ${journals.folder} is writable by group or others (mode 777). Make it a folder of your own`,
    );
    expect(await readFile(source, "utf8")).toBe(SOURCE);
  });
});
